// The shared test processes of `npm test` (test/shared/N.test.ts): the suite's test files that
// carry the line `// test-process: shared` run in a few processes instead of one each, so each
// pays for starting Node and loading the service once instead of once per file (about 2
// CPU-seconds a server-backed file). A process has one chDB (chDB holds one data directory per
// process) and one server for the files that ask for no setting of their own; a file that asks
// for one gets a server of its own, on a Postgres of its own beside that chDB, for as long as its
// tests run (server.ts startTestServer, ava-for-file.mjs). A file may carry the line when its
// tests stay apart from the other files' by organization in ClickHouse and need nothing else of
// the process's: no chDB of their own, no process-wide counter, no signal or exit. Every other
// file runs in a process of its own, as does every file named on the command line
// (`npx ava test/x.test.ts`): the line changes only where a file runs in the whole suite, never
// what it tests.
import { register } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { filesOfProcess, processFiles } from './shared-files.ts';

/** Loads this shared process's test files into it (called by test/shared/N.test.ts). */
export async function runSharedProcess(entry: string): Promise<void> {
  const entries = processFiles();
  const index = entries.indexOf(fileURLToPath(entry));
  if (index < 0) throw new Error(`${entry} is not one of test/shared/N.test.ts`);
  const files = filesOfProcess(index, entries.length);
  register('./ava-hook.mjs', import.meta.url, { data: { files: files.map((f) => pathToFileURL(f).href) } });
  // server.ts's SHARING, set without loading the service for files that start no server.
  (globalThis as Record<symbol, unknown>)[Symbol.for('answerscope.test.shareServers')] = true;
  // ava runs a process's tests from the tick after the first is declared, so every file must
  // declare its tests in the same tick: one module importing them all evaluates them in one pass,
  // one file after another (a file with a top-level await would end the pass; none has one).
  const imports = files.map((file) => `import ${JSON.stringify(pathToFileURL(file).href)};`).join('\n');
  await import(`data:text/javascript,${encodeURIComponent(imports)}`);
}
