// Property test over every operation of the registry, on every surface it has (REST, the Metrics
// API, MCP): whatever a client sends as parameters (strings, numbers, lists, dates, unicode, huge
// values, objects), the answer is never a 500; an error is a JSON {"error"} (an MCP isError text);
// a 400 names a parameter; and no request hangs (the bound is generous: it catches a hang or a
// runaway scan, not a slow machine). The seed is fixed so a failure reproduces; FUZZ_SEED and
// FUZZ_RUNS explore further.
// test-process: shared
// test-weight: 25
import http from 'node:http';
import test from 'ava';
import fc from 'fast-check';
import { z } from 'zod';
import { operations } from '../../src/operations/index.ts';
import { operationPath, type Operation } from '../../src/operations/registry.ts';
import { idArgument, pathParam } from '../../src/mcp/schemas.ts';
import { call, seedTenant, startTestServer, type Reply, type Tenant, type TestServer } from '../helpers/server.ts';
import { post } from '../mcp/client.ts';
import { encodeCursor } from '../../src/cursor.ts';
import { appCall, person, session } from './app/helpers.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 30);
/** Not a performance figure: a request still unanswered after this long has hung. */
const HANG_MS = 30_000;

let server: TestServer;
let tenant: Tenant;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '1000000', CRAWLER_LOGS_RATE_LIMIT_MAX: '1000000' });
  tenant = await seedTenant(server);
});
test.after.always(async () => {
  await server?.stop();
});

const namesOf = new Map<Operation, string[]>();
/** Parameter names of an operation as the client sees them (the path id under its MCP name too). */
function paramNames(op: Operation): string[] {
  const known = namesOf.get(op) ?? schemaNames(op);
  namesOf.set(op, known);
  return known;
}

/** Worked out once per operation: its params' JSON Schema is the costliest step of checking a reply. */
function schemaNames(op: Operation): string[] {
  const schema = z.toJSONSchema(op.params, { io: 'input', unrepresentable: 'any' }) as { properties?: object };
  const names = Object.keys(schema.properties ?? {});
  const arg = idArgument(op);
  return arg ? [...names, arg] : names;
}

const awkward = fc.constantFrom(
  '',
  ' ',
  '\u0000',
  '%00',
  '%',
  '..',
  '/',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '0x10',
  '[]',
  '{}',
  '2026-02-30',
  '2026-02-30T00:00:00Z',
  '9999-12-31',
  '1800-01-01',
  '+275760-09-13T00:00:00.000Z',
  '2026-13-01',
  '2026-01-01T25:00:00Z',
  '2026-01-01T00:00:00+99:00',
  '00000000-0000-0000-0000-000000000000',
  '------------------------------------',
  "'; DROP TABLE brands; --",
  '{brand:UUID}',
  '\u202e\u0301😀',
  'a\u200bb@example.test',
  'a\u2066b\u2069@example.test',
  'a,b,,c,',
);

/** Anything a careless or hostile client might put in one parameter. */
const anything: fc.Arbitrary<unknown> = fc.oneof(
  awkward,
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ minLength: 1500, maxLength: 2500 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.uuid(),
  fc.array(fc.string({ maxLength: 20 }), { maxLength: 120 }),
  fc.array(fc.oneof(fc.integer(), fc.constant(null), fc.object()), { maxLength: 5 }),
  fc.object({ maxDepth: 2 }),
);

/** A value that passes for this parameter (an enum's member, the tenant's brand), so requests reach the stores. */
function valid(name: string, schema: { enum?: unknown[] }): fc.Arbitrary<unknown> {
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if (name === 'brand_id') return fc.constant(tenant.brandId);
  if (name === 'topic_id') return fc.constant(tenant.topicIds[0]);
  if (name === 'prompt_id') return fc.constant(tenant.promptIds[0]);
  if (name === 'date_from' || name === 'date_to') {
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date('2099-12-30'), noInvalidDate: true })
      .chain((d) =>
        fc.constantFrom(d.toISOString().slice(0, 10), d.toISOString(), d.toISOString().replace('Z', '+00:00')),
      );
  }
  if (name === 'limit') return fc.integer({ min: -10, max: 1000 });
  if (name === 'model') return fc.array(fc.constantFrom('gpt-4o', 'sonar', 'claude-sonnet-4'), { maxLength: 50 });
  if (name.endsWith('_id') || name === 'id') return fc.uuid();
  if (name === 'url') return fc.webUrl();
  return fc.string({ maxLength: 30 });
}

/** A value that should not pass, or only just: the boundaries and everything else. */
function hostile(name: string): fc.Arbitrary<unknown> {
  const near: fc.Arbitrary<unknown>[] = [];
  if (name === 'date_from' || name === 'date_to') {
    near.push(
      fc
        .date({ min: new Date('0001-01-01'), max: new Date('9999-12-31'), noInvalidDate: true })
        .chain((d) => fc.constantFrom(d.toISOString().slice(0, 10), d.toISOString())),
    );
    // The ends of the stores' own types: DateTime (1970-2106), DateTime64 (1900-2299), Date's year 9999.
    near.push(
      fc.constantFrom(
        '9999-12-31',
        '9999-12-31T23:59:59.999Z',
        '0000-01-01',
        '1899-12-31',
        '1969-12-31',
        '2106-02-07T06:28:16Z',
        '2299-12-31',
        '2300-01-01',
        '1999-12-31T23:59:59.999Z',
        '2100-01-01',
      ),
    );
  }
  if (name === 'cursor') {
    const at = fc.oneof(
      fc.date().map((d) => (Number.isNaN(d.getTime()) ? 'x' : d.toISOString())),
      fc.string(),
    );
    near.push(
      fc
        .tuple(at, fc.oneof(fc.uuid(), fc.string({ maxLength: 40 })))
        .map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
    );
  }
  // Huge, tiny and fractional numbers, as JSON numbers and as text, for every parameter.
  near.push(fc.constantFrom(1e300, -1e300, 0.5, 2 ** 53 + 2, 4_294_967_296, 65_536, '1e300', '2.5', '-0'));
  if (name === 'model') near.push(fc.array(fc.string({ maxLength: 140 }), { minLength: 40, maxLength: 200 }));
  return fc.oneof(
    ...near.map((arbitrary) => ({ arbitrary, weight: 4 })),
    { arbitrary: awkward, weight: 1 },
    { arbitrary: anything, weight: 1 },
  );
}

const forgedCursor = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** A cursor the service signed, with one bit of its instant changed. */
function alteredCursor(): string {
  const bytes = Buffer.from(
    encodeCursor({ at: '2026-11-01T06:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' }),
    'base64url',
  );
  bytes[3] ^= 1;
  return bytes.toString('base64url');
}

/**
 * Values known to have broken a store or a parser somewhere: each is tried in every parameter of
 * every operation (as fast-check examples, which count in numRuns), before the random runs.
 */
const EDGES: unknown[] = [
  '',
  '\u0000',
  'x'.repeat(5000),
  -1,
  1e21,
  true,
  null,
  [],
  {},
  ['a', ['b']],
  '9999-12-31',
  '2026-02-30T00:00:00Z',
  '1800-01-01T00:00:00Z',
  forgedCursor(['2026-11-01T06:00:00.000Z', '-'.repeat(36)]),
  forgedCursor(['+275760-09-13T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']),
  // Well shaped but unsigned (it paged from the top before cursors were signed), and one signed then altered.
  forgedCursor(['2099-01-01T00:00:00.000Z', 'ffffffff-ffff-4fff-bfff-ffffffffffff']),
  alteredCursor(),
  // Numbers past every store column, and not integers: each must be a 400 or clamped, never a failed store call.
  1e300,
  -1e300,
  1.5,
  2 ** 53,
  Number.MAX_VALUE,
  '1e400',
  Array.from({ length: 80 }, (_, i) => `model-${i}`),
];

const schemaOf = (op: Operation) =>
  z.toJSONSchema(op.params, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<string, object>;
    required?: string[];
  };

/** A valid request with one parameter made hostile, so that parameter's checks meet the stores. */
const inputFor = (op: Operation) => {
  const { properties = {}, required = [] } = schemaOf(op);
  const names = paramNames(op);
  const base: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of names) base[name] = valid(name, properties[name] ?? properties.id ?? {});
  const requiredKeys = names.filter((n) => required.includes(n) || n === idArgument(op));
  const spoiled = names.length
    ? fc.constantFrom(...names).chain((k) => fc.record({ [k]: hostile(k) }))
    : fc.constant({});
  // Parameters an operation does not take are ignored whatever they hold, or refused by name.
  const unknown = fc.dictionary(fc.string({ maxLength: 12 }), anything, { maxKeys: 2 });
  return fc.tuple(unknown, fc.record(base, { requiredKeys }), spoiled).map(([u, a, b]) => ({ ...u, ...a, ...b }));
};

/** Every EDGES value in every parameter, the others valid. */
function edgeExamples(op: Operation): [Record<string, unknown>][] {
  const base: Record<string, unknown> = {};
  for (const name of schemaOf(op).required ?? []) base[name] = name === 'brand_id' ? tenant.brandId : '';
  const arg = idArgument(op);
  if (arg) base[arg] = '00000000-0000-4000-8000-000000000000';
  return paramNames(op).flatMap((name) => EDGES.map((edge): [Record<string, unknown>] => [{ ...base, [name]: edge }]));
}

/** Query-string form: lists as repeated keys, objects as their JSON. */
function query(input: Record<string, unknown>): string {
  const q = new URLSearchParams();
  const text = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  for (const [k, v] of Object.entries(input)) {
    if (Array.isArray(v)) for (const item of v) q.append(k, text(item));
    else q.append(k, text(v));
  }
  return q.toString();
}

function restRequest(op: Operation, prefix: string, input: Record<string, unknown>): Promise<Reply> {
  const rest = { ...input };
  let path = `${prefix}${operationPath(op)}`;
  const param = pathParam(op);
  if (param) {
    const arg = idArgument(op)!;
    const id = rest[arg] ?? rest[param];
    delete rest[arg];
    delete rest[param];
    const text = typeof id === 'string' ? id : JSON.stringify(id ?? '');
    // Kept short enough for a request line; an empty id becomes a different route, hence 'x'.
    path = path.replace(`:${param}`, encodeURIComponent(text.slice(0, 1000) || 'x'));
  }
  if (op.method === 'GET' || op.method === 'DELETE') {
    const qs = query(rest);
    return call(server, op.method, qs ? `${path}?${qs}` : path, { key: tenant.key });
  }
  return call(server, op.method, path, { key: tenant.key, body: rest });
}

async function timed<T>(what: string, run: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([run(), hang]);
  } finally {
    clearTimeout(timer);
  }
}

const namesOne = (message: string, names: string[]) => names.some((n) => message.includes(n));

/**
 * The workspace writes refuse parameters they do not take (docs/workspace.md): such a 400 names
 * every unknown one the input held. Other operations ignore them.
 */
function namesUnknown(op: Operation, message: string, input: unknown): boolean {
  const known = new Set(paramNames(op));
  const unknown = Object.keys(input as object).filter((k) => !known.has(k));
  return /^Unknown fields?: /.test(message) && unknown.length > 0 && unknown.every((k) => message.includes(k));
}

function checkReply(op: Operation, reply: Reply, input: unknown): string | undefined {
  const where = `${op.method} ${operationPath(op)} ${JSON.stringify(input).slice(0, 300)}`;
  if (reply.status >= 500) return `${where}: ${reply.status} ${JSON.stringify(reply.body)}`;
  if (reply.status < 300) return undefined;
  if (typeof reply.body?.error !== 'string') return `${where}: ${reply.status} without a JSON error body`;
  if (
    reply.status === 400 &&
    !namesOne(reply.body.error, paramNames(op)) &&
    !namesUnknown(op, reply.body.error, input)
  ) {
    return `${where}: 400 "${reply.body.error}" names no parameter`;
  }
  return undefined;
}

function checkToolResult(op: Operation, body: any, input: unknown): string | undefined {
  const where = `MCP ${op.tool} ${JSON.stringify(input).slice(0, 300)}`;
  if (body?.error) return `${where}: JSON-RPC error ${JSON.stringify(body.error)}`;
  const result = body?.result;
  if (!result) return `${where}: no result`;
  if (!result.isError) return undefined;
  const text = String(result.content?.[0]?.text ?? '');
  if (/Internal server error|unavailable/.test(text)) return `${where}: ${text}`;
  const status = /not found|not pending|already exists|limit reached/i.test(text) ? 'other' : 'invalid';
  if (status === 'invalid' && !namesOne(text, paramNames(op)) && !namesUnknown(op, text, input))
    return `${where}: "${text}" names no parameter`;
  return undefined;
}

const surfaces = operations.flatMap((op) => [
  { op, surface: 'REST', prefix: '/api/mcp' },
  ...(op.metrics ? [{ op, surface: 'Metrics API', prefix: '/api/v1' }] : []),
  ...(op.tool ? [{ op, surface: 'MCP', prefix: '' }] : []),
]);

for (const { op, surface, prefix } of surfaces) {
  test.serial(`${surface} ${op.method} ${operationPath(op)}: any parameters give an answer, never a 500`, async (t) => {
    let id = 0;
    const examples = edgeExamples(op);
    await fc.assert(
      fc.asyncProperty(inputFor(op), async (input) => {
        if (surface === 'MCP') {
          const args = { ...input };
          const message = {
            jsonrpc: '2.0',
            id: ++id,
            method: 'tools/call',
            params: { name: op.tool, arguments: args },
          };
          const reply = await timed(`MCP ${op.tool}`, () =>
            post(server, message, { authorization: `Bearer ${tenant.key}` }),
          );
          const problem =
            reply.status !== 200 ? `MCP ${op.tool}: HTTP ${reply.status}` : checkToolResult(op, reply.body, input);
          if (problem) throw new Error(problem);
          return;
        }
        const reply = await timed(`${op.method} ${operationPath(op)}`, () => restRequest(op, prefix, input));
        const problem = checkReply(op, reply, input);
        if (problem) throw new Error(problem);
      }),
      { seed: SEED, numRuns: examples.length + RUNS, endOnFailure: true, examples },
    );
    t.pass();
  });
}

// Beyond the operations: the numbers of a crawler-log batch, which land in UInt16, UInt64 and
// Float64 columns. A kept entry (an AI crawler on the brand's site) with one hostile number is a
// 202 or a 400 naming the entry and the field, never a failed insert (a 500 that loses the batch).
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.3; +https://openai.com/gptbot';
const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    1e300,
    -1e300,
    1.5,
    -1,
    2 ** 53,
    2 ** 64,
    65_536,
    4_294_967_296,
    Number.MAX_VALUE,
    '200',
    '1e300',
    '',
  ),
  fc.double(),
  fc.integer(),
  fc.bigInt({ min: 0n, max: 2n ** 70n }).map((n) => `${n}`),
  anything,
);

test.serial(
  'crawler-log batches: any number in any numeric field is a 202 or a 400 naming it, never a 500',
  async (t) => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('status_code', 'bytes_sent', 'duration_ms'),
        hostileNumber,
        async (field, value) => {
          const entry = {
            timestamp: '2026-11-01T06:00:00Z',
            method: 'GET',
            host: 'acme.example',
            path: '/pricing',
            status_code: 200,
            ip: '203.0.113.9',
            user_agent: GPTBOT,
            [field]: value,
          };
          const reply = await timed('POST /api/mcp/crawler-logs', () =>
            call(server, 'POST', `/api/mcp/crawler-logs?brand_id=${tenant.brandId}`, {
              key: tenant.key,
              body: [entry],
            }),
          );
          const where = `${field}=${JSON.stringify(value)?.slice(0, 80)}`;
          if (reply.status === 202) return;
          if (reply.status !== 400 || !String(reply.body?.error).startsWith(`entries[0].${field} `)) {
            throw new Error(`${where}: ${reply.status} ${JSON.stringify(reply.body)}`);
          }
        },
      ),
      { seed: SEED, numRuns: 60 + RUNS, endOnFailure: true },
    );
    t.pass();
  },
);

// The Host names the service without PUBLIC_URL (docs/oauth.md): one with separators, quotes or
// spaces is a 400 before it reaches a header; a well-formed one comes back in the issuer and, quoted,
// in the challenge, which stays one parameter.
const HOST_CHARS = 'ab-.:[]0123456789;,"\\\' /@?#=%\t';
const hostHeader = fc.oneof(
  fc.string({ unit: fc.constantFrom(...HOST_CHARS), minLength: 1, maxLength: 30 }),
  fc.domain(),
  fc.ipV4(),
  fc.ipV6().map((ip) => `[${ip}]`),
  fc
    .tuple(fc.domain(), fc.constantFrom(';sandbox', '", error="x', ',evil.example', ' x', ':99999', ':8080'))
    .map(([d, s]) => d + s),
);

function rawRequest(
  method: string,
  path: string,
  host: string,
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        setHost: false,
        headers: { host, 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

test.serial('any Host: 400 unless well formed, and never a header with a value of its own', async (t) => {
  await fc.assert(
    fc.asyncProperty(hostHeader, async (host) => {
      const metadata = await timed('metadata', () =>
        rawRequest('GET', '/.well-known/oauth-authorization-server', host),
      );
      const mcp = await timed('MCP 401', () => rawRequest('POST', '/api/mcp', host));
      for (const reply of [metadata, mcp]) {
        if (reply.status >= 500 || ![200, 400, 401].includes(reply.status)) {
          throw new Error(`${JSON.stringify(host)}: ${reply.status} ${reply.body.slice(0, 200)}`);
        }
      }
      if (metadata.status === 200) {
        // Node trims a header's surrounding blanks; no host at all is the loopback name.
        const expected = host.trim() ? new URL(`http://${host.trim()}`).origin : 'http://localhost';
        const issuer = JSON.parse(metadata.body).issuer;
        if (issuer !== expected) throw new Error(`${JSON.stringify(host)}: issuer ${issuer}`);
      }
      const challenge = mcp.headers['www-authenticate'];
      if (mcp.status === 401 && !/^Bearer resource_metadata="[A-Za-z0-9.:/[\]_-]+"$/.test(String(challenge))) {
        throw new Error(`${JSON.stringify(host)}: challenge ${challenge}`);
      }
      if (mcp.status === 400 && challenge !== undefined)
        throw new Error(`${JSON.stringify(host)}: 400 with a challenge`);
    }),
    { seed: SEED, numRuns: 100 + RUNS, endOnFailure: true },
  );
  t.pass();
});

/** Characters that make two emails look alike, or cannot be stored: every one is a 400 naming email. */
const invisible = fc.constantFrom(
  '\u0000',
  '\u0007',
  '\u001b',
  '\u007f',
  '\u200b',
  '\u200c',
  '\u200d',
  '\u2060',
  '\ufeff',
  '\u200e',
  '\u200f',
  '\u202a',
  '\u202d',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u061c',
  '\u2028',
  '\u2029',
);
/** What an email's trim takes off: spaces, tab, CR, LF (src/tenancy/emails.ts). */
const BLANK_ENDS = /^[\p{Zs}\t\n\r]+|[\p{Zs}\t\n\r]+$/gu;
const emailPart = fc.stringMatching(/^[a-z0-9.+-]{1,12}$/);
const email = fc.oneof(
  // An address with an invisible character somewhere in it.
  fc.tuple(emailPart, emailPart, invisible, fc.nat(40)).map(([local, domain, bad, at]) => {
    const plain = `${local}@${domain}.example`;
    const i = at % (plain.length + 1);
    return { email: plain.slice(0, i) + bad + plain.slice(i), invisible: true };
  }),
  // Anything at all: never a 500.
  // Only ordinary blanks (spaces, tab, CR, LF) are trimmed; JavaScript's trim() would also take U+FEFF,
  // U+2028 and U+2029 off the ends, and expect them accepted.
  fc
    .string({ unit: 'binary', maxLength: 60 })
    .map((s) => ({ email: s, invisible: /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u.test(s.replace(BLANK_ENDS, '')) })),
);
/** Tried whatever FUZZ_SEED: the characters JavaScript's trim() takes, at either end. */
const endExamples: [{ email: string; invisible: boolean }][] = ['\ufeff', '\u2028', '\u2029'].flatMap((c) => [
  [{ email: `${c}ends@example.test`, invisible: true }],
  [{ email: `ends@example.test${c}`, invisible: true }],
  [{ email: ` ${c}ends@example.test `, invisible: true }],
]);

test.serial(
  'any email on the sign-in form and the invitation route: never a 500; an invisible character is a 400 naming email',
  async (t) => {
    const admin = await person(server);
    const s = await session(server, admin);
    await fc.assert(
      fc.asyncProperty(email, async ({ email: typed, invisible: bad }) => {
        const signIn = await timed('sign-in', () =>
          fetch(`${server.url}/app/sign-in`, {
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ email: typed, password: 'not the password' }),
          }),
        );
        const text = await signIn.text();
        if (signIn.status >= 500) throw new Error(`sign-in ${JSON.stringify(typed)}: ${signIn.status}`);
        if (bad && (signIn.status !== 400 || !text.includes('id="email-error"'))) {
          throw new Error(`sign-in ${JSON.stringify(typed)}: ${signIn.status} without the error beside Email`);
        }
        const invited = await timed('invite', () =>
          appCall(server, s, '/members/invite', { email: typed, role: 'member' }),
        );
        if (invited.status >= 500) throw new Error(`invite ${JSON.stringify(typed)}: ${invited.status}`);
        if (bad && (invited.status !== 400 || invited.body.field !== 'email' || !/email/i.test(invited.body.error))) {
          throw new Error(`invite ${JSON.stringify(typed)}: ${invited.status} ${JSON.stringify(invited.body)}`);
        }
      }),
      { seed: SEED, numRuns: endExamples.length + 40 + RUNS, endOnFailure: true, examples: endExamples },
    );
    t.pass();
  },
);
