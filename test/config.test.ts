// test-process: shared
import test from 'ava';
import { ConfigError, loadConfig } from '../src/config.ts';

test('defaults follow docs/api.md section 4', (t) => {
  const c = loadConfig({});
  t.is(c.port, 8787);
  t.is(c.host, '127.0.0.1');
  t.true(c.dataDir.endsWith('/data'));
  t.is(c.databaseUrl, undefined);
  t.is(c.clickhouse.url, undefined);
  t.deepEqual(c.rateLimit, { max: 250, windowS: 900, store: 'memory' });
  t.is(c.trustProxy, 0);
  t.is(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2);
  t.false(c.allowPrivateUrls);
});

test('a bad value stops start-up with a message naming the variable', (t) => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ PORT: 'eighty' }, /^Invalid PORT="eighty"/],
    [{ PORT: '70000' }, /^Invalid PORT/],
    [{ RATE_LIMIT_MAX: '0' }, /^Invalid RATE_LIMIT_MAX/],
    [{ RATE_LIMIT_WINDOW_S: '-5' }, /^Invalid RATE_LIMIT_WINDOW_S/],
    [{ TRUST_PROXY: 'yes' }, /^Invalid TRUST_PROXY/],
    [{ TRUST_PROXY: '1.5' }, /^Invalid TRUST_PROXY/],
    [{ TRUST_PROXY: '-1' }, /^Invalid TRUST_PROXY/],
    [{ ALLOW_PRIVATE_URLS: 'true' }, /^Invalid ALLOW_PRIVATE_URLS/],
    [{ DATABASE_URL: 'not a url' }, /^Invalid DATABASE_URL/],
    [{ CLICKHOUSE_URL: 'localhost:8123' }, /^Invalid CLICKHOUSE_URL/],
    [{ LLM_BASE_URL: 'nope' }, /^Invalid LLM_BASE_URL/],
  ];
  for (const [env, pattern] of cases) {
    const err = t.throws(() => loadConfig(env), { instanceOf: ConfigError });
    t.regex(err!.message, pattern);
  }
});

test('an empty value counts as unset', (t) => {
  t.is(loadConfig({ PORT: '', DATABASE_URL: '' }).port, 8787);
});
