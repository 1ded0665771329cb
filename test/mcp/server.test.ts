// The MCP server and tool generation on made-up operations, over the SDK's in-memory transport (no
// stores): path ids renamed, arrays wrapped, annotations and descriptions derived, identity taken
// from authInfo, API errors passed through and unexpected ones kept generic and logged.
// test-process: shared
import test from 'ava';
import { z } from 'zod';
import pino from 'pino';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { operation, type Operation } from '../../src/operations/registry.ts';
import type { Identity } from '../../src/tenancy/keys.ts';
import { brandId, uuid } from '../../src/operations/params.ts';
import { notFound } from '../../src/errors.ts';
import { loadConfig, ConfigError } from '../../src/config.ts';
import { buildTools } from '../../src/mcp/tools.ts';
import { authInfoFor, createMcpServer } from '../../src/mcp/server.ts';
import { originAllowed } from '../../src/mcp/origin.ts';

const BRAND = '7b3c1a52-8a0e-4f5e-9c1f-1d2e3f405162';
const THING = '0d9f7c1e-3b2a-4c5d-8e6f-7a8b9c0d1e2f';
const identity: Identity = { keyId: 'k1', userId: 'u1', email: 'a@example.test', organizationId: 'org-from-the-key' };

const ops: Operation<any, any>[] = [
  operation({
    name: 'things',
    method: 'GET',
    tool: 'list_things',
    params: z.object({ brand_id: brandId }),
    result: z.array(z.object({ id: z.string(), at: z.string() })),
    description: 'Lists the things of a brand, newest first.',
    run: async () => [{ id: 'a', at: new Date('2026-01-02T03:04:05Z') as any }],
  }),
  operation({
    name: 'thing',
    method: 'GET',
    path: '/things/:id',
    tool: 'get_thing',
    idArg: 'thing_id',
    params: z.object({ id: uuid('thing_id').describe('The thing, from list_things') }),
    result: z.object({ id: z.string() }),
    description: 'One thing by id.',
    run: async (_ctx, p) => {
      if (p.id !== THING) throw notFound('Thing not found');
      return { id: p.id };
    },
  }),
  operation({
    name: 'who',
    method: 'GET',
    tool: 'who_am_i',
    params: z.object({}),
    result: z.object({ organizationId: z.string().nullable() }),
    description: 'The organization the key acts on.',
    run: async (ctx) => ({ organizationId: ctx.identity.organizationId }),
  }),
  operation({
    name: 'boom',
    method: 'GET',
    tool: 'explode',
    params: z.object({}),
    result: z.object({}),
    description: 'Always fails unexpectedly.',
    run: async () => {
      throw new Error('relation "secret_table" does not exist');
    },
  }),
  operation({
    name: 'touch',
    method: 'PATCH',
    path: '/things/:id/touch',
    tool: 'touch_thing',
    idArg: 'thing_id',
    write: true,
    idempotent: true,
    params: z.object({ id: uuid('thing_id') }),
    result: z.object({ touched: z.boolean() }),
    description: "Marks a thing as touched. Run only at the user's explicit request.",
    says: ['explicit-request'],
    run: async () => ({ touched: true }),
  }),
  operation({
    name: 'fetch',
    method: 'POST',
    tool: 'fetch_page',
    write: true,
    openWorld: true,
    destructive: true,
    params: z.object({ url: z.string() }),
    result: z.object({ ok: z.boolean() }),
    description: 'Fetches a page and replaces the stored copy.',
    run: async () => ({ ok: true }),
  }),
];
const tools = buildTools(ops);
const byName = new Map(tools.map((t) => [t.name, t.definition]));

/** A client connected in memory to a fresh server; every message carries the key's authInfo. */
async function connected(lines: string[] = []) {
  const log = pino(
    { level: 'error' },
    {
      write: (s: string) => {
        lines.push(s);
      },
    },
  );
  const server = createMcpServer(
    { config: loadConfig({}), stores: {} as any, log },
    { requestId: 'req-7', log },
    tools,
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => send(message, { ...options, authInfo: authInfoFor('ans_test', identity) });
  await server.connect(serverSide);
  const client = new Client({ name: 't', version: '1' });
  await client.connect(clientSide);
  await client.listTools();
  return client;
}

test('a path id becomes the idArg argument, required as the path made it', (t) => {
  const input = byName.get('get_thing')!.inputSchema;
  t.deepEqual(Object.keys(input.properties!), ['thing_id']);
  t.deepEqual(input.required, ['thing_id']);
  t.is((input.properties!.thing_id as any).description, 'The thing, from list_things');
});

test('a bare array result is wrapped as {items} in the output schema and in the result', async (t) => {
  const output = byName.get('list_things')!.outputSchema!;
  t.deepEqual(Object.keys(output.properties!), ['items']);
  t.is((output.properties!.items as any).type, 'array');
  const client = await connected();
  const result: any = await client.callTool({ name: 'list_things', arguments: { brand_id: BRAND } });
  // Over JSON, as REST sends it: the Date is a string.
  t.deepEqual(result.structuredContent, { items: [{ id: 'a', at: '2026-01-02T03:04:05.000Z' }] });
  t.deepEqual(result.content, [{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
});

test('annotations: reads are read-only and idempotent; writes take their hints from the operation', (t) => {
  t.deepEqual(byName.get('list_things')!.annotations, {
    title: 'List things',
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
  t.deepEqual(byName.get('touch_thing')!.annotations, {
    title: 'Touch thing',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
  t.deepEqual(byName.get('fetch_page')!.annotations, {
    title: 'Fetch page',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: true,
  });
});

test('descriptions send the model to list_brands and keep writes to explicit requests, saying each once', (t) => {
  t.is(
    byName.get('list_things')!.description,
    'Lists the things of a brand, newest first. Call list_brands first to get the brand_id.',
  );
  t.is(byName.get('who_am_i')!.description, 'The organization the key acts on.');
  t.is(byName.get('touch_thing')!.description, "Marks a thing as touched. Run only at the user's explicit request.");
  t.regex(
    byName.get('fetch_page')!.description!,
    /^Fetches a page and replaces the stored copy\. It changes data: call it only when the user explicitly asks/,
  );
});

test('a tool declared twice, or with a result that is not an object, stops the build', (t) => {
  t.throws(() => buildTools([ops[0], ops[0]]), { message: /declared twice/ });
  t.throws(() => buildTools([{ ...ops[2], result: z.string() }]), { message: /result must be an object or an array/ });
});

test('identity comes from authInfo; arguments cannot name another organization', async (t) => {
  const client = await connected();
  const result: any = await client.callTool({ name: 'who_am_i', arguments: { organizationId: 'someone-else' } });
  t.deepEqual(result.structuredContent, { organizationId: 'org-from-the-key' });
});

test('API errors reach the model as isError with their message; validation names the argument', async (t) => {
  const client = await connected();
  t.deepEqual(
    await client.callTool({ name: 'get_thing', arguments: { thing_id: THING } }).then((r: any) => r.structuredContent),
    { id: THING },
  );
  const missing: any = await client.callTool({ name: 'get_thing', arguments: { thing_id: BRAND } });
  t.deepEqual([missing.isError, missing.content], [true, [{ type: 'text', text: 'Thing not found' }]]);
  const malformed: any = await client.callTool({ name: 'get_thing', arguments: { thing_id: 'nope' } });
  t.deepEqual([malformed.isError, malformed.content[0].text], [true, 'thing_id must be a UUID']);
  const noBrand: any = await client.callTool({ name: 'list_things', arguments: {} });
  t.deepEqual([noBrand.isError, noBrand.content[0].text], [true, 'brand_id is required']);
});

test('an unexpected error gives a generic message with the request id and is logged', async (t) => {
  const lines: string[] = [];
  const client = await connected(lines);
  const result: any = await client.callTool({ name: 'explode', arguments: {} });
  t.true(result.isError);
  t.is(result.content[0].text, 'Internal server error (request req-7)');
  t.false(JSON.stringify(result).includes('secret_table'));
  const logged = lines.map((l) => JSON.parse(l));
  t.true(
    logged.some((l) => l.msg === 'MCP tool failed' && l.tool === 'explode' && l.err.message.includes('secret_table')),
  );
});

test('origins: none, localhost and listed ones pass; others, null and non-http fail', (t) => {
  t.true(originAllowed(undefined, []));
  t.true(originAllowed('http://localhost:6274', []));
  t.true(originAllowed('https://127.0.0.1', []));
  t.true(originAllowed('http://[::1]:80', []));
  t.true(originAllowed('https://app.example.com', ['https://app.example.com']));
  t.false(originAllowed('https://app.example.com:444', ['https://app.example.com']));
  t.false(originAllowed('http://app.example.com', ['https://app.example.com']));
  t.false(originAllowed('http://localhost.evil.net', []));
  t.false(originAllowed('null', []));
  t.false(originAllowed('chrome-extension://abc', []));
  t.true(originAllowed('http://anything.example', ['*']));
});

test('MCP_ALLOWED_ORIGINS: a comma list of origins or *, normalised; a bad item is named', (t) => {
  t.deepEqual(loadConfig({}).mcp.allowedOrigins, []);
  t.deepEqual(
    loadConfig({ MCP_ALLOWED_ORIGINS: 'https://App.Example.com/, http://b.example:8080' }).mcp.allowedOrigins,
    ['https://app.example.com', 'http://b.example:8080'],
  );
  t.deepEqual(loadConfig({ MCP_ALLOWED_ORIGINS: '*' }).mcp.allowedOrigins, ['*']);
  const err = t.throws(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'app.example.com' }), { instanceOf: ConfigError });
  t.regex(err!.message, /MCP_ALLOWED_ORIGINS/);
  t.throws(() => loadConfig({ MCP_ALLOWED_ORIGINS: 'https://a.example/path' }), { instanceOf: ConfigError });
});
