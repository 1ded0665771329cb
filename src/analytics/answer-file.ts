// The answers export as a file, in either format (docs/api.md section 11, docs/warehouse.md): JSON
// Lines, one answer a line, or Parquet (answer-parquet.ts). Both are streams read page by page
// (answer-export.ts), so whoever writes them out, the command line to standard output or the HTTP
// export to its response, holds one page at a time: a reader that stops reading stops the reads.
import { Readable } from 'node:stream';
import type { ClickHouse } from '../stores/clickhouse.ts';
import type { Queryable } from '../stores/postgres.ts';
import type { AnswerContext, AnswerFilters } from './answers.ts';
import { exportAnswers } from './answer-export.ts';
import { answersParquet } from './answer-parquet.ts';

export const ANSWER_FILE_FORMATS = ['jsonl', 'parquet'] as const;
export type AnswerFileFormat = (typeof ANSWER_FILE_FORMATS)[number];

/** The media type of each format (Parquet's as registered with IANA). */
export const ANSWER_FILE_TYPES: Record<AnswerFileFormat, string> = {
  jsonl: 'application/x-ndjson',
  parquet: 'application/vnd.apache.parquet',
};

/** Every answer of the filters as a file of `format`, streamed; destroy it to stop early. */
export async function answerFile(
  ch: ClickHouse,
  pg: Queryable,
  f: AnswerFilters,
  ctx: AnswerContext,
  format: AnswerFileFormat,
): Promise<Readable> {
  const pages = exportAnswers(ch, pg, f, ctx);
  if (format === 'parquet') return answersParquet(ch, pages);
  return Readable.from(
    (async function* () {
      for await (const page of pages) {
        let chunk = '';
        for (const answer of page) chunk += `${JSON.stringify(answer)}\n`;
        yield chunk;
      }
    })(),
    { objectMode: false },
  );
}
