// `answerscope export answers --brand ID [--from D] [--to D]` (docs/api.md section 11): every
// answer of the brand in range, both modes, newest first, as the answers explorer shows them, one
// JSON object a line on standard output. Pages are read one at a time and each is written only
// once the previous one has drained, so memory stays flat however many answers there are.
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import type { Writable } from 'node:stream';
import { UserError } from '../errors.ts';
import { UUID_RE } from '../uuid.ts';
import { dateBound } from '../operations/params.ts';
import { brandById, brandEntities } from '../tenancy/brands.ts';
import { ANSWER_FILE_FORMATS, type AnswerFileFormat, answerFile } from '../analytics/answer-file.ts';
import type { Stores } from '../stores/index.ts';

export const EXPORT_USAGE = 'export answers --brand ID [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--format jsonl|parquet]';

/**
 * A command's result written as it is produced rather than printed as one JSON document: the
 * command line pipes it to standard output, the admin channel to its response.
 */
export class LineStream {
  constructor(readonly writeTo: (out: Writable) => Promise<void>) {}
}

/** Resolves once `out` takes more; rejects when it fails or closes first (a reader that went away). */
export async function drained(out: Writable): Promise<void> {
  const closed = new AbortController();
  const onClose = () => closed.abort();
  out.once('close', onClose);
  try {
    await once(out, 'drain', { signal: closed.signal });
  } catch (err) {
    if (closed.signal.aborted) throw new Error('the output closed before the export finished');
    throw err;
  } finally {
    out.off('close', onClose);
  }
}

function bound(value: string | undefined, name: string, end: boolean): Date | undefined {
  if (value === undefined) return undefined;
  const parsed = dateBound(name, end).safeParse(value);
  if (!parsed.success) throw new UserError(parsed.error.issues[0].message);
  return parsed.data;
}

export async function runExportCommand(stores: Stores, sub: string | undefined, argv: string[]): Promise<LineStream> {
  if (sub !== 'answers') throw new UserError(`Unknown export: ${sub ?? '(none)'}; usage: answerscope ${EXPORT_USAGE}`);
  let values: { brand?: string; from?: string; to?: string; format?: string };
  try {
    values = parseArgs({
      args: argv,
      options: {
        brand: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        format: { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (err) {
    throw new UserError(`${(err as Error).message}; usage: answerscope ${EXPORT_USAGE}`);
  }
  if (!values.brand) throw new UserError(`--brand is required; usage: answerscope ${EXPORT_USAGE}`);
  if (!UUID_RE.test(values.brand)) throw new UserError(`--brand must be a UUID, got ${JSON.stringify(values.brand)}`);
  const format = (values.format ?? 'jsonl') as AnswerFileFormat;
  if (!ANSWER_FILE_FORMATS.includes(format)) {
    throw new UserError(`--format must be jsonl or parquet, got ${JSON.stringify(format)}`);
  }
  const from = bound(values.from, '--from', false);
  const to = bound(values.to, '--to', true);
  if (from && to && from > to) throw new UserError('--from must not be after --to');
  const brand = await brandById(stores.pg, values.brand.toLowerCase());
  if (!brand) throw new UserError(`No brand ${values.brand}`);
  const entities = await brandEntities(stores.pg, brand);
  const filters = { brandId: brand.id, generation: brand.analysis_generation, from, to };
  return new LineStream(async (out) => {
    const file = await answerFile(stores.ch, stores.pg, filters, { entities }, format);
    try {
      for await (const chunk of file) {
        if (!out.write(chunk)) await drained(out);
      }
    } finally {
      file.destroy();
    }
  });
}
