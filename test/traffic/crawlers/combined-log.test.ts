// The combined log parser on lines as nginx and Apache write them: escaped quotes in user agents
// (nginx `\x22`, Apache `\"`), IPv6 clients, `-` for missing fields, the vhost form, request times.
// test-process: shared
import test from 'ava';
import { LogLineError, parseCombinedLine } from '../../../src/traffic/crawlers/combined-log.ts';
import { checkEntry, latestTimestamp } from '../../../src/traffic/crawlers/entry.ts';

const latest = latestTimestamp(new Date('2026-11-25T00:00:00Z'));

test('a standard combined line takes its host from the caller', (t) => {
  const line =
    '20.171.206.77 - - [24/Nov/2026:13:55:36 +0100] "GET /pricing?plan=pro HTTP/1.1" 200 5123 "https://chatgpt.com/" "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot"';
  const raw = parseCombinedLine(line, 'acme.example');
  t.deepEqual(raw, {
    timestamp: '2026-11-24T13:55:36+01:00',
    method: 'GET',
    host: 'acme.example',
    path: '/pricing?plan=pro',
    status_code: 200,
    ip: '20.171.206.77',
    user_agent:
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot',
    referer: 'https://chatgpt.com/',
    bytes_sent: 5123,
    duration_ms: null,
  });
  const entry = checkEntry(raw, latest);
  t.is(new Date(entry.ms).toISOString(), '2026-11-24T12:55:36.000Z');
  t.is(entry.path, '/pricing', 'the query string is not kept');
});

test('escaped quotes in the user agent, nginx and Apache style', (t) => {
  const nginx = parseCombinedLine(
    '203.0.113.9 - - [24/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 12 "-" "Mozilla/5.0 (compatible; \\x22Claude-User\\x22/1.0)"',
    'acme.example',
  );
  t.is(nginx.user_agent, 'Mozilla/5.0 (compatible; "Claude-User"/1.0)');
  const apache = parseCombinedLine(
    '203.0.113.9 - - [24/Nov/2026:10:00:00 +0000] "GET /a\\"b HTTP/1.1" 200 12 "-" "Foo \\"bar\\" \\\\ CCBot/2.0"',
    'acme.example',
  );
  t.is(apache.user_agent, 'Foo "bar" \\ CCBot/2.0');
  t.is(apache.path, '/a"b');
});

test('IPv6 clients, missing fields and the vhost form', (t) => {
  const raw = parseCombinedLine(
    'blog.acme.example:443 2001:db8:85a3::8a2e:370:7334 - alice [24/Nov/2026:23:59:59 -0500] "HEAD /feed HTTP/2.0" 304 - "-" "-"',
  );
  t.is(raw.host, 'blog.acme.example:443');
  t.is(raw.ip, '2001:db8:85a3::8a2e:370:7334');
  t.is(raw.referer, null);
  t.is(raw.bytes_sent, null);
  t.is(raw.user_agent, '');
  const entry = checkEntry(raw, latest);
  t.is(new Date(entry.ms).toISOString(), '2026-11-25T04:59:59.000Z');
  t.is(entry.method, 'HEAD');
  t.is(entry.status, 304);
});

test('a request time after the user agent is read as duration_ms', (t) => {
  const raw = parseCombinedLine(
    'acme.example 198.51.100.4 - - [24/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 512 "-" "PerplexityBot/1.0" 0.042',
  );
  t.is(raw.duration_ms, 42);
});

test('malformed lines say what is wrong', (t) => {
  const cases: [string, RegExp][] = [
    ['not a log line', /not in the combined log format/],
    [
      '1.2.3.4 - - [24/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1 200 5 "-" "UA"',
      /request must be followed by the status/,
    ],
    ['1.2.3.4 - - [24/Foo/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "UA"', /time must be/],
    ['1.2.3.4 - - [24/Nov/2026:10:00:00 +0000] "-" 400 0 "-" "-"', /request must be "METHOD PATH PROTOCOL"/],
    ['1.2.3.4 - - [24/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "UA" trailing', /request time/],
    ['1.2.3.4 - - [24/Nov/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 5 "-" "UA"', /names no host/],
  ];
  for (const [line, message] of cases) {
    const err = t.throws(() => parseCombinedLine(line), { instanceOf: LogLineError }, line);
    t.regex(err.message, message, line);
  }
});

test('the entry check refuses bad fields by name', (t) => {
  const good = {
    timestamp: '2026-11-24T10:00:00Z',
    method: 'GET',
    host: 'acme.example',
    path: '/',
    status_code: 200,
    ip: '1.2.3.4',
    user_agent: 'GPTBot/1.3',
  };
  t.notThrows(() => checkEntry(good, latest));
  const cases: [Record<string, unknown>, string][] = [
    [{ timestamp: '2026-02-30T10:00:00Z' }, 'timestamp must be an ISO 8601 timestamp with a time and zone'],
    [{ timestamp: '2026-11-24' }, 'timestamp must be an ISO 8601 timestamp with a time and zone'],
    [{ timestamp: '2026-11-27T00:00:00Z' }, 'timestamp must be from 2000-01-01 to one day after now'],
    [{ timestamp: undefined }, 'timestamp is required'],
    [{ status_code: 600 }, 'status_code must be an integer from 100 to 599'],
    [{ status_code: '2xx' }, 'status_code must be an integer from 100 to 599'],
    [{ ip: '999.1.1.1' }, 'ip must be an IPv4 or IPv6 address'],
    [{ host: 'evil.example@acme.example' }, 'host must be a host name'],
    [{ host: 'acme.example/x' }, 'host must be a host name'],
    [{ path: 'pricing' }, 'path must start with /'],
    [{ method: 'GET /' }, 'method must be an HTTP method'],
    [{ user_agent: 42 }, 'user_agent must be a string'],
    [{ bytes_sent: -1 }, 'bytes_sent must be an integer from 0 to 9007199254740991'],
    [{ bytes_sent: 2 ** 53 }, 'bytes_sent must be an integer from 0 to 9007199254740991'],
    [{ duration_ms: 'slow' }, 'duration_ms must be a finite number of 0 or more'],
    [{ duration_ms: Number.POSITIVE_INFINITY }, 'duration_ms must be a finite number of 0 or more'],
  ];
  for (const [change, message] of cases) {
    t.throws(() => checkEntry({ ...good, ...change }, latest), { message }, JSON.stringify(change));
  }
});
