// Structured logs: each request is one JSON line with its request id, operation, organization,
// status and latency; no line ever holds an API key, a webhook secret, an Authorization header,
// a password in a URL or a full answer text, whatever the code logs.
import { Writable } from 'node:stream';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { loadConfig } from '../../src/config.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { createLogger, MAX_STRING, openLogSink, type LogSink } from '../../src/logger.ts';
import { ingestLines } from '../../src/tracking/ingest/file.ts';
import { migratedDataDir } from '../helpers/data-dir.ts';
import { call, freshDatabase, seedTenant, type TestDatabase } from '../helpers/server.ts';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _enc, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});

let server: RunningServer;
let db: TestDatabase;
let dataDir: string;
test.before(async () => {
  db = await freshDatabase();
  dataDir = db.url ? fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-logging-')) : await migratedDataDir();
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    SCHEDULER: '0',
    ALLOW_PRIVATE_URLS: '1',
    ...(db.url ? { DATABASE_URL: db.url } : {}),
  });
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
  const res = await call(server, 'GET', '/api/v1/whoami', {
    key: tenant.key,
    headers: { 'x-request-id': 'log-test-1' },
  });
  t.is(res.status, 200);
  const line = parsed().find((l) => l.requestId === 'log-test-1' && l.msg === 'request');
  t.like(line, {
    level: 30,
    method: 'GET',
    path: '/api/v1/whoami',
    status: 200,
    operation: 'whoami',
    organizationId: tenant.organizationId,
  });
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
  const hook = await call(server, 'POST', '/api/mcp/webhooks', {
    key: tenant.key,
    body: { url: 'http://127.0.0.1:9/hook', events: ['webhook.test'] },
  });
  t.is(hook.status, 200, JSON.stringify(hook.body));
  const secret: string = hook.body.secret;
  t.truthy(secret);
  // An ingested answer's text.
  const answerText = `The unique answer text ${'lorem ipsum '.repeat(80)} ends here`;
  async function* one() {
    yield {
      line: 1,
      text: JSON.stringify({
        prompt_id: tenant.promptIds[0],
        platform: 'chatgpt',
        model: 'gpt-4o',
        region: 'US',
        collected_at: '2026-11-01T06:00:00Z',
        text: answerText,
        citations: [],
      }),
    };
  }
  t.is((await ingestLines(server.stores, one())).inserted, 1);
  // And whatever code might log by mistake: the logger itself must hold.
  server.log.error(
    {
      err: Object.assign(new Error(`rejected ${tenant.key} at postgres://app:hunter2secret@db.internal/x`), {
        detail: answerText,
      }),
      headers: { authorization: `Bearer ${tenant.key}` },
      answer: { text: answerText },
      note: `key=${tenant.key} secret ${secret}`,
      nested: { deeper: { value: answerText } },
    },
    `failed for ${tenant.key}`,
  );

  const all = lines.join('\n');
  for (const [what, value] of [
    ['key', tenant.key],
    ['unknown key', fakeKey],
    ['webhook secret', secret],
    ['URL password', 'hunter2secret'],
    ['answer text', answerText],
  ]) {
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
  // pg's detail quotes the failing row's values: never logged.
  t.false('detail' in last.err);
  t.true(last.nested.deeper.value.length < MAX_STRING + 60);
});

/**
 * A pipe nobody reads yet: a FIFO opened for reading and writing in one non-blocking descriptor,
 * as stdout is once Node has opened it as a pipe (a full pipe answers EAGAIN instead of blocking).
 */
function stuckPipe() {
  const fifo = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-log-pipe-')), 'log');
  execFileSync('mkfifo', [fifo]);
  const fd = fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  let text = '';
  let reader: NodeJS.Timeout | undefined;
  const readNow = () => {
    const buf = Buffer.alloc(64 * 1024);
    for (;;) {
      try {
        const n = fs.readSync(fd, buf);
        if (n <= 0) return;
        text += buf.toString('utf8', 0, n);
      } catch {
        return; // EAGAIN: empty for now
      }
    }
  };
  return {
    fd,
    startReading() {
      reader = setInterval(readNow, 10);
    },
    /** Every line written so far. */
    lines() {
      readNow();
      return text.split('\n').filter(Boolean);
    },
    stopReading() {
      clearInterval(reader);
    },
    remove() {
      fs.rmSync(path.dirname(fifo), { recursive: true, force: true });
    },
  };
}

/** Reads the pipe until the sink holds nothing, then closes the sink (and with it the descriptor). */
async function drainAndClose(sink: LogSink, pipe: ReturnType<typeof stuckPipe>) {
  pipe.startReading();
  const drained = await sink.drain(60_000);
  pipe.stopReading();
  const lines = pipe.lines();
  const closed = new Promise((resolve) => sink.stream.once('close', resolve));
  sink.stream.end();
  await closed;
  return { drained, lines };
}

test('a log reader that stops reading: lines are held up to a bound, then dropped whole and counted', async (t) => {
  const pipe = stuckPipe();
  t.teardown(() => pipe.remove());
  const sink = openLogSink(pipe.fd, { maxHeldBytes: 256 * 1024 });
  const log = createLogger('info', sink.stream);
  // About 1 MB in one go: the pipe takes 64 KB at most, the sink holds 256 KB, the rest is dropped.
  const total = 2000;
  for (let i = 0; i < total; i++) log.info({ i, pad: 'x'.repeat(400) }, 'line');
  t.false(await sink.drain(300), 'a pipe nobody reads does not drain');

  const read = await drainAndClose(sink, pipe);
  t.true(read.drained, 'drains once read');
  const lines = read.lines.map((l) => JSON.parse(l));
  const kept = lines.filter((l) => l.msg === 'line').map((l) => l.i);
  t.true(kept.length > 0 && kept.length < total);
  t.deepEqual(kept, [...kept.keys()], 'whole lines, in order, none repeated');
  const note = { level: 40, msg: 'log lines dropped: the log reader was not reading', dropped: total - kept.length };
  t.like(lines.at(-1), note);
});

test('the flush at exit gives up on a pipe nobody reads instead of retrying forever', async (t) => {
  const pipe = stuckPipe();
  t.teardown(() => pipe.remove());
  const sink = openLogSink(pipe.fd);
  const log = createLogger('info', sink.stream);
  for (let i = 0; i < 1000; i++) log.info({ i, pad: 'x'.repeat(400) }, 'line');
  // What pino's exit hook calls: it returns (after its bounded wait), and at once once abandoned.
  t.notThrows(() => sink.stream.flushSync());
  sink.abandon();
  log.info('one more');
  t.notThrows(() => sink.stream.flushSync());
  t.true((await drainAndClose(sink, pipe)).drained);
});
