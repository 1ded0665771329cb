// Which test files run in the shared test processes of `npm test`, and which process runs each
// (test/helpers/shared-process.ts says why). Read by ava.suite.config.js in ava's own process, so it
// loads nothing of the service.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TEST = path.join(ROOT, 'test');
const SHARED = path.join(TEST, 'shared');
export const MARKER = '// test-process: shared';

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return full === SHARED || entry.name === 'fixtures' ? [] : testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The suite's files that run in shared processes (the marker on a line of its own), sorted. */
export function sharedFiles(): string[] {
  return testFiles(TEST)
    .filter((file) => fs.readFileSync(file, 'utf8').split('\n').includes(MARKER))
    .sort();
}

/** The files ava runs, each in a process of its own: the shared processes' first, then every other file. */
export function suiteFiles(): string[] {
  const shared = new Set(sharedFiles());
  return [...processFiles(), ...testFiles(TEST).filter((file) => !shared.has(file))];
}

/** The shared processes' files, test/shared/N.test.ts, by N. */
export function processFiles(): string[] {
  return fs
    .readdirSync(SHARED)
    .filter((name) => /^\d+\.test\.ts$/.test(name))
    .sort((a, b) => Number.parseInt(a, 10) - Number.parseInt(b, 10))
    .map((name) => path.join(SHARED, name));
}

/**
 * What a file is expected to cost its process, for balancing: its source's length, times N for a
 * file with the line `// test-weight: N`, which costs about N times what its length suggests (a
 * property test's runs, a walk through every page in Chromium). Set from each file's CPU-seconds
 * run alone, at about 0.3 CPU-s per KB for a file of no weight (docs/performance.md).
 */
function cost(file: string): number {
  const text = fs.readFileSync(file, 'utf8');
  return text.length * Number(/^\/\/ test-weight: (\d+)$/m.exec(text)?.[1] ?? 1);
}

/**
 * The files of process `index` of `count`: the costliest first, each to the process with the least
 * cost so far, so the processes end at about one time.
 */
export function filesOfProcess(index: number, count: number, files = sharedFiles()): string[] {
  const costs = new Map(files.map((file) => [file, cost(file)]));
  const loads = Array.from({ length: count }, () => ({ cost: 0, files: [] as string[] }));
  for (const file of [...files].sort((a, b) => costs.get(b)! - costs.get(a)! || a.localeCompare(b))) {
    const lightest = loads.reduce((min, load) => (load.cost < min.cost ? load : min));
    lightest.cost += costs.get(file)!;
    lightest.files.push(file);
  }
  return loads[index].files.sort();
}
