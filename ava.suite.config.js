// The whole suite as `npm test` runs it: package.json's ava settings, with the files that carry the
// line `// test-process: shared` run in the shared processes (test/shared/N.test.ts), those first,
// instead of one process each (test/helpers/shared-process.ts), with TMPDIR in memory where there
// is room (test/helpers/fast-tmp.js). `npx ava FILE...` runs files alone.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { fastTmp } from './test/helpers/fast-tmp.js';

const root = path.dirname(fileURLToPath(import.meta.url));
const { suiteFiles } = await tsImport('./test/helpers/shared-files.ts', import.meta.url);
const { ava } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const files = suiteFiles().map((file) => path.relative(root, file));
const order = new Map(files.map((file, i) => [path.join(root, file), i]));
const tmp = fastTmp();

export default {
  ...ava,
  files,
  sortTestFiles: (a, b) => (order.get(a) ?? files.length) - (order.get(b) ?? files.length),
  ...(tmp ? { environmentVariables: { ...ava.environmentVariables, TMPDIR: tmp } } : {}),
};
