// `answerscope crawler-logs import FILE --brand ID [--host H] [--format auto|combined|jsonl]`
// (docs/api.md section 14, docs/crawlers.md): imports a server log's AI crawler hits for a brand and
// prints {read, accepted, dropped, rejected: [{line, error}], rejected_count}.
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UserError } from '../errors.ts';
import { brandById } from '../tenancy/brands.ts';
import { siteOfBrand } from '../traffic/sites.ts';
import { importLogFile, LOG_FORMATS, type LogFormat } from '../traffic/crawlers/import.ts';
import { UUID_RE } from '../uuid.ts';
import type { CommandEnv } from './env.ts';

export const CRAWLER_LOGS_USAGE = 'crawler-logs import FILE --brand ID [--host H] [--format auto|combined|jsonl]';

function parseOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: { brand: { type: 'string' }, host: { type: 'string' }, format: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UserError(`${(err as Error).message}\nusage: answerscope ${CRAWLER_LOGS_USAGE}`);
  }
}

export async function runCrawlerLogsCommand(env: CommandEnv, sub: string | undefined, argv: string[]) {
  if (sub !== 'import') throw new UserError(`usage: answerscope ${CRAWLER_LOGS_USAGE}`);
  const { values, positionals } = parseOptions(argv);
  if (!positionals[0]) throw new UserError(`FILE is required\nusage: answerscope ${CRAWLER_LOGS_USAGE}`);
  if (!values.brand) throw new UserError(`--brand is required\nusage: answerscope ${CRAWLER_LOGS_USAGE}`);
  if (!UUID_RE.test(values.brand)) throw new UserError(`--brand must be a UUID, got ${JSON.stringify(values.brand)}`);
  const format = (values.format ?? 'auto') as LogFormat;
  if (!LOG_FORMATS.includes(format)) throw new UserError(`--format must be one of: ${LOG_FORMATS.join(', ')}`);
  const brand = await brandById(env.stores.pg, values.brand.toLowerCase());
  if (!brand) throw new UserError(`No brand ${values.brand}`);
  const file = path.resolve(env.cwd, positionals[0]);
  return importLogFile(env.stores.ch, siteOfBrand(brand), file, { format, host: values.host, now: env.now });
}
