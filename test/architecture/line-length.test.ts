// One width for the whole tree: no line of src/ or jobs/ is longer than 120 characters. Biome's
// formatter wraps code at 120 (biome.json, lineWidth) but never splits a string, template or regex
// literal, a JSX attribute string or a comment, so a long one passes `biome check`; this test holds
// the limit. Split such a line into pieces joined with +, or re-wrap the comment.
// test-process: shared
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { ROOT, sourceFiles } from './source-files.ts';

const MAX = 120;

test(`no line of src/ or jobs/ is longer than ${MAX} characters`, (t) => {
  const files = ['src', 'jobs'].flatMap((dir) => sourceFiles(dir));
  t.true(files.length > 0);
  const long = files.flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.length > MAX ? [`${file}:${i + 1} (${line.length} chars)`] : [])),
  );
  t.deepEqual(long, [], `lines over ${MAX} characters:\n${long.join('\n')}`);
});
