// Structured logs: each request is one JSON line with its request id, operation, organization,
// status and latency; no line ever holds an API key, a webhook secret, an Authorization header,
// a password in a URL or a full answer text, whatever the code logs.
import { Writable } from 'node:stream';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { createLogger, MAX_STRING } from '../../src/logger.ts';
import { ingestLines } from '../../src/tracking/ingest-file.ts';
import { call, freshDatabase, seedTenant, type TestDatabase } from '../helpers/server.ts';

const lines: string[] = [];
const sink = new Writable({ write(chunk, _enc, done) { lines.push(...String(chunk).split('\n').filter(Boolean)); done(); } });

let server: RunningServer;
let db: TestDatabase;
let dataDir: string;
test.before(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-logging-'));
  db = await freshDatabase();
  const config = loadConfig({ DATA_DIR: dataDir, PORT: '0', SCHEDULER: '0', ALLOW_PRIVATE_URLS: '1', ...(db.url ? { DATABASE_URL: db.url } : {}) });
  server = await startServer(config, { log: createLogger('debug', sink) });
});
test.after.always(async () => {
  await server?.close();
  await db?.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const parsed = () => lines.map((l) => JSON.parse(l));

test('a request is one line with request id, operation, organization, status and latency', async (t) => {
  const tenant = await seedTenant(server);
  const res = await call(server, 'GET', '/api/v1/whoami', { key: tenant.key, headers: { 'x-request-id': 'log-test-1' } });
  t.is(res.status, 200);
  const line = parsed().find((l) => l.requestId === 'log-test-1' && l.msg === 'request');
  t.like(line, { level: 30, method: 'GET', path: '/api/v1/whoami', status: 200, operation: 'whoami', organizationId: tenant.organizationId });
  t.is(typeof line.ms, 'number');
  t.is(typeof line.time, 'number');
});

test('no key, secret, Authorization header, URL password or answer text reaches a line', async (t) => {
  const tenant = await seedTenant(server);
  const fakeKey = `ans_${'Zq9'.repeat(12)}`;
  // A valid key, an unknown one, a malformed header carrying it, and the key in a path and a query.
  await call(server, 'GET', '/api/mcp/brands', { key: tenant.key });
  await call(server, 'GET', '/api/mcp/brands', { key: fakeKey });
  await call(server, 'GET', '/api/mcp/brands', { headers: { authorization: `Token ${tenant.key}` } });
  await call(server, 'GET', `/api/mcp/${tenant.key}?api_key=${tenant.key}`, { key: tenant.key });
  // A webhook secret is returned once; it must not be logged.
  const hook = await call(server, 'POST', '/api/mcp/webhooks', { key: tenant.key, body: { url: 'http://127.0.0.1:9/hook', events: ['webhook.test'] } });
  t.is(hook.status, 200, JSON.stringify(hook.body));
  const secret: string = hook.body.secret;
  t.truthy(secret);
  // An ingested answer's text.
  const answerText = `The unique answer text ${'lorem ipsum '.repeat(80)} ends here`;
  async function* one() {
    yield { line: 1, text: JSON.stringify({ prompt_id: tenant.promptIds[0], platform: 'chatgpt', model: 'gpt-4o', region: 'US', collected_at: '2026-11-01T06:00:00Z', text: answerText, citations: [] }) };
  }
  t.is((await ingestLines(server.stores, one())).inserted, 1);
  // And whatever code might log by mistake: the logger itself must hold.
  server.log.error({
    err: Object.assign(new Error(`rejected ${tenant.key} at postgres://app:hunter2secret@db.internal/x`), { detail: answerText }),
    headers: { authorization: `Bearer ${tenant.key}` },
    answer: { text: answerText },
    note: `key=${tenant.key} secret ${secret}`,
    nested: { deeper: { value: answerText } },
  }, `failed for ${tenant.key}`);

  const all = lines.join('\n');
  for (const [what, value] of [['key', tenant.key], ['unknown key', fakeKey], ['webhook secret', secret], ['URL password', 'hunter2secret'], ['answer text', answerText]]) {
    t.false(all.includes(value), `${what} appears in the log`);
  }
  // The body of the key (without its prefix) is not there either, in any form.
  t.false(all.includes(tenant.key.slice(4)));
  t.false(all.includes(secret.slice(6)));
  const last = parsed().at(-1);
  t.is(last.headers.authorization, '[redacted]');
  t.is(last.answer, '[redacted]');
  t.regex(last.msg, /failed for ans_\[redacted\]/);
  t.regex(last.err.message, /postgres:\/\/app:\[redacted\]@db\.internal/);
  t.true(last.err.detail.length < MAX_STRING + 60);
  t.true(last.nested.deeper.value.length < MAX_STRING + 60);
});
