// One of the shared test processes of `npm test`: see test/helpers/shared-process.ts.
import { runSharedProcess } from '../helpers/shared-process.ts';

await runSharedProcess(import.meta.url);
