// What a test file marked `// test-process: shared` must not do, since it runs beside other files
// in one process with one chDB (test/helpers/shared-process.ts): open stores of its own, ask for a
// chDB of its own, read a process-wide metric, or end or signal its own process. (Hooks the shared
// process cannot run with the file, ava-for-file.mjs refuses as the file loads.) A check of the
// text: it finds the usual ways of doing these, not every way.
// test-process: shared
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { sharedFiles } from '../helpers/shared-files.ts';
import { ROOT } from './source-files.ts';

const FORBIDDEN: [RegExp, string][] = [
  [/\bopen(Stores|ClickHouse|Embedded)\(/, 'opens stores of its own'],
  [/embeddedClickHouse:\s*true/, 'asks for a chDB of its own'],
  [/src\/runtime\/metrics\.ts'|['"`]\/metrics['"`]/, 'reads a process-wide metric'],
  [/process\.exit\(|process\.kill\(process\.pid/, 'ends or signals its own process'],
];

test('a file in a shared process asks nothing of the process that the other files there share', (t) => {
  // This file names what it looks for.
  const files = sharedFiles().filter((file) => file !== fileURLToPath(import.meta.url));
  t.true(files.length > 100);
  const found = files.flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    return FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(([, why]) => `${relative(ROOT, file)}: ${why}`);
  });
  t.deepEqual(found, []);
});

test('the check finds what it looks for', (t) => {
  const flagged = (text: string) => FORBIDDEN.filter(([pattern]) => pattern.test(text)).map(([, why]) => why);
  t.deepEqual(flagged('const s = await openStores(config);'), ['opens stores of its own']);
  t.deepEqual(flagged('startTestServer({}, { embeddedClickHouse: true })'), ['asks for a chDB of its own']);
  t.deepEqual(flagged("import { x } from '../../src/runtime/metrics.ts';"), ['reads a process-wide metric']);
  t.deepEqual(flagged("await get(server, '/metrics')"), ['reads a process-wide metric']);
  t.deepEqual(flagged('process.kill(process.pid, "SIGTERM")'), ['ends or signals its own process']);
  t.deepEqual(flagged('test.before(async () => { server = await startTestServer({ TRUST_PROXY: "1" }); })'), []);
  t.deepEqual(flagged('process.kill(-child.pid!, "SIGTERM")'), []);
});
