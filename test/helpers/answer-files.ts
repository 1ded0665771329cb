// Reading the answers export back in tests: JSON Lines as objects, and the Parquet file through an
// independent reader (hyparquet), each row as the JSON object of the same answer.
import { parquetMetadata, parquetReadObjects, parquetSchema } from 'hyparquet';

/** The objects of a JSON Lines file. */
export const jsonLines = (text: string | Buffer) =>
  text
    .toString()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

/** A Parquet file's rows as hyparquet reads them, with the file's column names in order. */
export async function readParquet(bytes: Buffer) {
  const file = new Uint8Array(bytes).buffer; // a copy: an ArrayBuffer of the file alone
  const metadata = parquetMetadata(file);
  const columns = parquetSchema(metadata).children.map((c) => c.element.name);
  return { rows: (await parquetReadObjects({ file })) as Record<string, any>[], columns, metadata };
}

/** A row of the Parquet file as the JSON object of the same answer (docs/warehouse.md says how). */
export function asJson(row: Record<string, any>) {
  const { search_queries_known, ...rest } = row;
  return {
    ...rest,
    collected_at: (row.collected_at as Date).toISOString(),
    search_queries: search_queries_known ? row.search_queries : null,
  };
}
