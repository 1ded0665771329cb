// `npm run openapi`: writes docs/openapi.json from the operation registry and the raw endpoints.
// Run it after changing either; test/ops/openapi.test.ts fails while the committed file differs
// from a fresh build.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { operations } from '../src/operations/index.ts';
import { openApiText } from '../src/http/openapi.ts';
import { rawEndpoints } from '../src/operations/raw-endpoints.ts';

const file = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));
fs.writeFileSync(file, openApiText(operations));
process.stdout.write(`wrote ${file} (${operations.length} operations, ${rawEndpoints.length} raw endpoints)\n`);
