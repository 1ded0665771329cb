// A test that cannot run here is reported as skipped (ava's test.skip), never as passed: CI
// (.ci/run) fails on a test skipped in every run, and a pass that ran nothing would hide it.
// test-process: shared
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ROOT, sourceFiles } from './source-files.ts';

test('no test passes in place of running: a missing Chromium or server skips it instead', (t) => {
  // `return t.pass(...)` under a condition: the test counts as passed and ran nothing.
  const passing = /if \([^)]*\) return t\.pass\(/;
  const found = sourceFiles('test', /\.ts$/).filter((file) => passing.test(readFileSync(join(ROOT, file), 'utf8')));
  t.deepEqual(found, []);
});
