// A ClickHouse server for the tests, as far as @clickhouse/client reaches it: the part of
// ClickHouse's HTTP interface the client speaks (https://clickhouse.com/docs/interfaces/http),
// answered by chDB, the same engine. No ClickHouse server can be installed where the tests run,
// and without this the server branch of src/stores/clickhouse.ts (CLICKHOUSE_URL) ran in no test.
//
// What it serves, as ClickHouse does:
// - the query in the body, in the `query` URL parameter, or both (the parameter first, then the
//   body: an INSERT's data, read by the engine from a file so binary formats such as RowBinary
//   arrive byte for byte);
// - `param_<name>` values bound to `{name:Type}` placeholders, in ClickHouse's text form;
// - `database`, `default_format`, and any other URL parameter as a setting of that query alone
//   (each request runs on a chDB session of its own, as a request without `session_id` does);
// - a gzip request body (`Content-Encoding`), a gzip response when the request asks for
//   `enable_http_compression=1` and accepts gzip;
// - errors as the engine words them (`Code: 60. DB::Exception: ... (UNKNOWN_TABLE)`), with the
//   X-ClickHouse-Exception-Code header and the HTTP status ClickHouse gives that code.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Session } from 'chdb';

const gunzip = promisify(zlib.gunzip);
const gzip = promisify(zlib.gzip);

// URL parameters that are not settings (ClickHouse's HTTPHandler reserves these names).
const NOT_SETTINGS = new Set([
  'query',
  'database',
  'default_format',
  'query_id',
  'session_id',
  'session_timeout',
  'session_check',
  'user',
  'password',
  'quota_key',
  'role',
  'compress',
  'decompress',
  'enable_http_compression',
  'wait_end_of_query',
]);

// The HTTP status ClickHouse answers an error with, by the error's name (the engine ends its
// message with it): src/Server/HTTP/exceptionCodeToHTTPStatus.cpp of ClickHouse/ClickHouse, read
// 2026-11-27. Any other error is a 500.
const STATUS_BY_NAME: [number, RegExp][] = [
  [
    400,
    /^(BAD_ARGUMENTS|CANNOT_COMPILE_REGEXP|CANNOT_PARSE_\w+|DUPLICATE_COLUMN|ILLEGAL_COLUMN|UNKNOWN_ELEMENT_IN_AST|UNKNOWN_TYPE_OF_AST_NODE|THERE_IS_NO_COLUMN|TOO_DEEP_AST|TOO_BIG_AST|UNEXPECTED_AST_STRUCTURE|SYNTAX_ERROR|INCORRECT_DATA|TYPE_MISMATCH|VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE)$/,
  ],
  [
    404,
    /^UNKNOWN_(TABLE|FUNCTION|IDENTIFIER|TYPE|STORAGE|DATABASE|SETTING|DIRECTION_OF_SORTING|AGGREGATE_FUNCTION|FORMAT|DATABASE_ENGINE|TYPE_OF_QUERY|ROLE)$/,
  ],
  [413, /^QUERY_IS_TOO_LARGE$/],
  [501, /^NOT_IMPLEMENTED$/],
  [503, /^(SOCKET_TIMEOUT|CANNOT_OPEN_FILE|CANNOT_SCHEDULE_TASK)$/],
  [408, /^TIMEOUT_EXCEEDED$/],
];
const statusOf = (name: string) => STATUS_BY_NAME.find(([, re]) => re.test(name))?.[0] ?? 500;

/** A string literal of ClickHouse SQL holding `text` exactly. */
const literal = (text: string) => `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;

/** `INSERT INTO t (cols) FORMAT F`: the statement whose data the body holds, split at its format. */
const INSERT_FORMAT = /^\s*(INSERT\s+INTO\s+[\s\S]*?)\s+FORMAT\s+(\w+)\s*$/i;

export interface ClickHouseHttp {
  url: string;
  close(): Promise<void>;
}

/** Serves chDB, keeping its files in `dir`, on a loopback port of its own. */
export async function startClickHouseHttp(dir: string): Promise<ClickHouseHttp> {
  fs.mkdirSync(dir, { recursive: true });
  // Held open for the server's life: the engine stays up between requests' sessions.
  const engine = new Session(dir);
  const spool = fs.mkdtempSync(path.join(os.tmpdir(), 'answerscope-ch-http-'));
  let spooled = 0;

  const run = async (url: URL, body: Buffer) => {
    const params = url.searchParams;
    const session = new Session(dir);
    let file: string | undefined;
    try {
      const database = params.get('database');
      if (database) await session.queryAsync(`USE ${database.replace(/[^\w]/g, '')}`);
      const sets: string[] = [];
      for (const [name, value] of params) {
        if (name.startsWith('param_')) sets.push(`${name} = ${literal(value)}`);
        else if (!NOT_SETTINGS.has(name))
          sets.push(`${name} = ${/^-?\d+(\.\d+)?$/.test(value) ? value : literal(value)}`);
      }
      if (sets.length) await session.queryAsync(`SET ${sets.join(', ')}`);
      let sql = params.get('query') ?? '';
      const insert = INSERT_FORMAT.exec(sql);
      if (insert && body.length) {
        file = path.join(spool, `${++spooled}.body`);
        await fs.promises.writeFile(file, body);
        sql = `${insert[1]} FROM INFILE ${literal(file)} FORMAT ${insert[2]}`;
      } else if (body.length) {
        sql = sql ? `${sql}\n${body.toString('utf8')}` : body.toString('utf8');
      }
      const format = params.get('default_format') ?? 'TabSeparated';
      return { result: await session.queryAsync(sql, { format }), format };
    } finally {
      session.close();
      if (file) await fs.promises.rm(file, { force: true });
    }
  };

  const server = http.createServer(
    // ClickHouse's default http_max_uri_size: bound values may make a long URL.
    { maxHeaderSize: 1024 * 1024 },
    (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        if (url.pathname === '/ping') {
          res.end('Ok.\n');
          return;
        }
        try {
          let body = Buffer.concat(chunks);
          if (req.headers['content-encoding'] === 'gzip') body = await gunzip(body);
          const { result, format } = await run(url, body);
          let out = Buffer.from(result.bytes());
          const headers: Record<string, string> = {
            'content-type': /JSON/i.test(format) ? 'application/json; charset=UTF-8' : 'text/plain; charset=UTF-8',
            'x-clickhouse-format': format,
            'x-clickhouse-query-id': url.searchParams.get('query_id') ?? '',
            'x-clickhouse-summary': JSON.stringify({
              read_rows: String(result.rowsRead),
              read_bytes: String(result.bytesRead),
              written_rows: '0',
              written_bytes: '0',
              total_rows_to_read: '0',
              result_rows: '0',
              result_bytes: String(out.length),
              elapsed_ns: String(Math.round(result.elapsed * 1e9)),
            }),
          };
          if (
            url.searchParams.get('enable_http_compression') === '1' &&
            /gzip/.test(req.headers['accept-encoding'] ?? '')
          ) {
            out = await gzip(out);
            headers['content-encoding'] = 'gzip';
          }
          res.writeHead(200, headers);
          res.end(out);
        } catch (err) {
          const message = String((err as Error).message ?? err);
          const code = Number(/Code: (\d+)/.exec(message)?.[1] ?? 1001);
          const name = /\((\w+)\)\s*$/.exec(message)?.[1] ?? '';
          res.writeHead(statusOf(name), {
            'content-type': 'text/plain; charset=UTF-8',
            'x-clickhouse-exception-code': String(code),
          });
          res.end(`${message.startsWith('Code:') ? message : `Code: ${code}. DB::Exception: ${message}`}\n`);
        }
      });
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      engine.close();
      fs.rmSync(spool, { recursive: true, force: true });
    },
  };
}
