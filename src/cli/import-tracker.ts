// `answerscope import-tracker FILE --brand ID --format NAME [--map field=column,...]` (docs/metrics.md
// "Agreement with another tracker"): imports another tool's answer export, then reports how its
// readings agree with Answerscope's on the same answers (the import-agreement operation's report).
import fs from 'node:fs';
import { UserError } from '../errors.ts';
import { UUID_RE } from '../uuid.ts';
import type { Stores } from '../stores/index.ts';
import { brandById } from '../tenancy/brands.ts';
import { importTracker, TRACKER_FIELDS } from '../tracking/ingest/tracker-import.ts';
import { importAgreement } from '../analytics/import-agreement.ts';

const FIELDS = TRACKER_FIELDS.join(', ');
const USAGE_HEAD = 'import-tracker FILE --brand ID --format NAME [--map field=column,...]';
export const IMPORT_TRACKER_USAGE = `${USAGE_HEAD} (fields: ${FIELDS})`;

export async function runImportTracker(
  stores: Stores,
  file: string,
  values: { brand?: string; format?: string; map?: string },
) {
  if (!values.brand) throw new UserError(`--brand is required; usage: answerscope ${IMPORT_TRACKER_USAGE}`);
  if (!UUID_RE.test(values.brand)) throw new UserError(`--brand must be a UUID, got ${JSON.stringify(values.brand)}`);
  if (!values.format) throw new UserError(`--format is required; usage: answerscope ${IMPORT_TRACKER_USAGE}`);
  const brand = await brandById(stores.pg, values.brand.toLowerCase());
  if (!brand) throw new UserError(`No brand ${values.brand}`);
  let body: string;
  try {
    body = fs.readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(`Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const imported = await importTracker(stores, { body, fileName: file, brand, format: values.format, map: values.map });
  return { import: imported, agreement: await importAgreement(stores.pg, brand.id, imported.source) };
}
