// A failed ClickHouse insert names its table and the engine's error, never the rows: the engine's
// message quotes them, and whoever catches the error logs it whole.
// test-process: shared
import { HIT_COLUMNS } from '../../src/traffic/crawlers/entry.ts';
import test from 'ava';
import { startTestServer, type TestServer } from '../helpers/server.ts';
import { InsertError, insertFailure } from '../../src/stores/insert-error.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer();
});
test.after.always(async () => {
  await server?.stop();
});

test('an insert the engine refuses fails naming the table and error, without the row', async (t) => {
  const secretish = 'row-data-that-must-not-leak';
  const row = `${JSON.stringify([
    '00000000-0000-4000-8000-000000000001',
    '2026-11-01 06:00:00.000',
    '2026-11-01',
    'GPTBot',
    'OpenAI',
    'ai_training',
    'verified',
    'GET',
    'acme.example',
    `/${secretish}`,
    200,
    '2xx',
    '',
    1e300,
    null,
  ])}\n`;
  const err = await t.throwsAsync(server.stores.ch.insertLines('ai_crawler_hits', HIT_COLUMNS, row));
  t.true(err instanceof InsertError, String(err));
  t.regex(err!.message, /^insert into ai_crawler_hits failed: Code: \d+/);
  t.false(err!.message.includes(secretish), err!.message);
  t.false(err!.message.includes('e+300'), err!.message);
  t.false(String(err!.stack).includes(secretish));
});

test('the reason keeps the engine code, name and first clause; other errors pass unchanged', (t) => {
  const engine = Object.assign(
    new Error("Code: 27. DB::Exception: Cannot parse input: expected ',' before: '1e300,null]': (at row 1)"),
    { type: 'CANNOT_PARSE_INPUT_ASSERTION_FAILED' },
  );
  t.is(
    (insertFailure('answers', engine) as Error).message,
    'insert into answers failed: Code: 27 (CANNOT_PARSE_INPUT_ASSERTION_FAILED). Cannot parse input',
  );
  const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8123'), { code: 'ECONNREFUSED' });
  t.is(insertFailure('answers', refused), refused);
});
