// A failed ClickHouse insert, told by table and error without the rows. The engine's own message
// quotes the rows it could not read ("Cannot parse input: expected ',' before: '<row data>'"), and
// an error is logged whole wherever it lands (a 500's log line, a job's), so the store replaces it
// before it leaves: the table, the engine's error code and name, and the message's first clause,
// which states the error, not the data.

export class InsertError extends Error {
  constructor(
    readonly table: string,
    /** The engine's error code (`27`), when it gave one. */
    readonly code: string | undefined,
    reason: string,
  ) {
    super(`insert into ${table} failed: ${reason}`);
    this.name = 'InsertError';
  }
}

/** "Code: 27. DB::Exception: Cannot parse input: expected ..." -> "Code: 27. Cannot parse input". */
export function insertFailure(table: string, err: unknown): unknown {
  const e = err as { message?: unknown; code?: unknown; type?: unknown } | null;
  const message = typeof e?.message === 'string' ? e.message : '';
  const code =
    /^Code: (\d+)\./.exec(message)?.[1] ?? (typeof e?.code === 'string' && /^\d+$/.test(e.code) ? e.code : undefined);
  // Not the engine's answer (a refused connection, a deadline): it holds no row, and the outage
  // check (stores/outage.ts) must still recognise it.
  if (!code) return err;
  const exception = /DB::Exception: ([^:\n]*)/.exec(message)?.[1]?.trim();
  const clause = (exception || message.split(/[:\n]/, 1)[0]).replace(/'[^']*'?|"[^"]*"?/g, '…').slice(0, 200);
  const type = typeof e?.type === 'string' ? ` (${e.type})` : '';
  return new InsertError(table, code, `Code: ${code}${type}. ${clause}`);
}
