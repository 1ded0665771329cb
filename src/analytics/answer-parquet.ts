// The answers export as Parquet (`answerscope export answers --format parquet`, docs/warehouse.md):
// the same answers as the JSON Lines export, page by page, written by ClickHouse itself. The pages
// go to a file in TMPDIR as they are read (one page in memory at a time), the engine turns the file
// into Parquet a row group at a time, and the Parquet is streamed out: memory stays flat whatever
// the brand's size; the disk holds the lines until the engine has read them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Answer } from './answers.ts';

/**
 * The file's columns, in order, with their ClickHouse types (the Parquet types follow from them:
 * String is a UTF-8 string, DateTime64 a UTC timestamp in milliseconds, Array(Tuple) a list of
 * structs). docs/warehouse.md lists them with their meaning; a test holds the two together.
 */
export const ANSWER_PARQUET_COLUMNS: readonly (readonly [name: string, type: string])[] = [
  ['id', 'String'],
  ['prompt_id', 'String'],
  ['prompt_text', 'Nullable(String)'],
  ['platform', 'String'],
  ['model_used', 'String'],
  ['region', 'String'],
  ['mode', 'String'],
  ['collected_at', "DateTime64(3, 'UTC')"],
  ['text', 'String'],
  [
    'entities',
    'Array(Tuple(entity_id String, name String, is_brand Bool, mentions Int32, position Nullable(Int32), ' +
      'citations Int32, score Float64, sentiment Nullable(String)))',
  ],
  ['citations', 'Array(Tuple(url String, domain String, category String, article_type String, title String))'],
  ['search_queries', 'Array(String)'],
  ['search_queries_known', 'Bool'],
  ['provider_model', 'String'],
  ['engine_version', 'Nullable(String)'],
  ['analysis_version', 'Nullable(String)'],
  ['source', 'String'],
];

const STRUCTURE = ANSWER_PARQUET_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', ');

/**
 * An answer as a row of the file: the JSON object itself, but for `search_queries`, which Parquet
 * from ClickHouse cannot leave null (no nullable lists): an empty list with `search_queries_known`
 * false stands for the JSON's null.
 */
export function parquetRow(answer: Answer): Record<string, unknown> {
  return {
    ...answer,
    search_queries: answer.search_queries ?? [],
    search_queries_known: answer.search_queries !== null,
  };
}

/** The pages' answers as one Parquet file, streamed; its temporary files are gone once it is read. */
export async function answersParquet(ch: ClickHouse, pages: AsyncIterable<Answer[]>): Promise<Readable> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'answerscope-export-'));
  const remove = () => fs.rmSync(dir, { recursive: true, force: true });
  try {
    const jsonl = path.join(dir, 'answers.jsonl');
    const out = fs.createWriteStream(jsonl);
    const failed = once(out, 'error').then(([err]) => {
      throw err;
    });
    failed.catch(() => {}); // raced below; a failure after the last race is the engine's to report
    for await (const page of pages) {
      let chunk = '';
      for (const answer of page) chunk += `${JSON.stringify(parquetRow(answer))}\n`;
      if (!out.write(chunk)) await Promise.race([once(out, 'drain'), failed]);
    }
    out.end();
    await Promise.race([once(out, 'finish'), failed]);
    const parquet = await ch.parquet(STRUCTURE, jsonl);
    // The engine has read the lines: an embedded engine's Parquet file is in the same folder, so
    // the folder goes once that is read too.
    parquet.once('close', remove);
    return parquet;
  } catch (err) {
    remove();
    throw err;
  }
}
