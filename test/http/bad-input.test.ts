// Bad input as docs/api.md section 9 decides it, on REST, the Metrics API and MCP: the guard in front
// of /api/ in any spelling, bounded lists, strict dates and cursors, malformed tools/call params.
// test-process: shared
import test from 'ava';
import { call, get, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { connect, initialize, post } from '../mcp/client.ts';
import { encodeCursor } from '../../src/cursor.ts';
import { operations } from '../../src/operations/index.ts';
import { operationPath } from '../../src/operations/registry.ts';

let server: TestServer;
let tenant: Tenant;
const LIMIT = 200;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: String(LIMIT) });
  tenant = await seedTenant(server);
});
test.after.always(async () => {
  await server?.stop();
});

// Each test below sends few requests from one address; the rate-limit test runs alone, last.
const b = () => `brand_id=${tenant.brandId}`;

test.serial(
  'a path under /api/ in another case is guarded, then unknown: 401 without a key, 404 with one',
  async (t) => {
    const spellings = [
      ['GET', '/Api/v1/brands'],
      ['GET', '/API/MCP/WEBHOOKS'],
      ['GET', '/api/V1/brands'],
      ['PATCH', `/Api/mcp/content-opportunities/${tenant.brandId}/status`],
      ['GET', '/%61pi/v1/brands'],
      ['POST', '/API/MCP'],
      ['GET', '/api/nothing-here'],
      ['GET', '/api'],
    ];
    for (const [method, path] of spellings) {
      const anonymous = await call(server, method, path, { body: method === 'GET' ? undefined : { status: 'done' } });
      t.is(anonymous.status, 401, `${method} ${path}`);
      t.deepEqual(anonymous.body, { error: 'Missing or malformed API key' }, path);
      const known = await call(server, method, path, {
        key: tenant.key,
        body: method === 'GET' ? undefined : { status: 'done' },
      });
      t.is(known.status, 404, `${method} ${path} with a key`);
      t.deepEqual(known.body, { error: 'Not found' }, path);
    }
    // The lower-case spelling still works, and the public paths under /api/ stay public.
    t.is((await get(server, '/api/v1/brands', tenant.key)).status, 200);
    t.is((await get(server, '/api/openapi.json')).status, 200);
  },
);

test.serial('model takes at most 50 values of at most 128 characters, on every surface', async (t) => {
  const models = (n: number) => Array.from({ length: n }, (_, i) => `model-${i}`).join(',');
  t.is((await get(server, `/api/v1/citations?${b()}&model=${models(50)}`, tenant.key)).status, 200);
  for (const prefix of ['/api/mcp', '/api/v1']) {
    const many = await get(server, `${prefix}/visibility-summary?${b()}&model=${models(51)}`, tenant.key);
    t.is(many.status, 400);
    t.deepEqual(many.body, { error: 'model accepts at most 50 values' });
  }
  const long = await get(server, `/api/v1/citations?${b()}&model=${'x'.repeat(129)}`, tenant.key);
  t.deepEqual([long.status, long.body], [400, { error: 'model values must be at most 128 characters' }]);
  const huge = await get(server, `/api/v1/citations?${b()}&model=${','.repeat(7000)}`, tenant.key);
  t.deepEqual([huge.status, huge.body], [400, { error: 'model accepts at most 50 values' }]);

  // The MCP probe of the issue: 80,000 values in one call is refused at once, with the REST message.
  const client = await connect(server, tenant.key);
  const values = Array.from({ length: 80_000 }, (_, i) => `m${i}`);
  const result: any = await client.callTool({
    name: 'list_citations',
    arguments: { brand_id: tenant.brandId, model: values },
  });
  t.true(result.isError);
  t.is(result.content[0].text, 'model accepts at most 50 values');
  const asText: any = await client.callTool({
    name: 'get_visibility_summary',
    arguments: { brand_id: tenant.brandId, model: values.join(',') },
  });
  t.is(asText.content[0].text, 'model accepts at most 50 values');
  await client.close();
});

test.serial('dates must name a real day or instant from 2000-01-01 to 2099-12-31; nothing rolls over', async (t) => {
  const cases: [string, string][] = [
    ['date_from=2026-02-30T00:00:00Z', 'date_from must be a date (YYYY-MM-DD) or an ISO 8601 timestamp'],
    ['date_from=2026-02-29', 'date_from must be a date (YYYY-MM-DD) or an ISO 8601 timestamp'],
    ['date_to=2026-04-31T10:00:00%2B02:00', 'date_to must be a date (YYYY-MM-DD) or an ISO 8601 timestamp'],
    ['date_to=2026-01-01T24:00:00Z', 'date_to must be a date (YYYY-MM-DD) or an ISO 8601 timestamp'],
    ['date_from=9999-12-31', 'date_from must be between 2000-01-01 and 2099-12-31'],
    ['date_from=1999-12-31', 'date_from must be between 2000-01-01 and 2099-12-31'],
    ['date_to=2100-01-01T00:00:00Z', 'date_to must be between 2000-01-01 and 2099-12-31'],
    ['date_from=2026-03-02&date_to=2026-03-01', 'date_from must not be after date_to'],
    ['date_from=2026-03-01T12:00:00Z&date_to=2026-03-01T11:59:59Z', 'date_from must not be after date_to'],
  ];
  for (const [query, error] of cases) {
    for (const path of ['/api/v1/citations', '/api/mcp/visibility-trend', '/api/v1/ai-traffic']) {
      const r = await get(server, `${path}?${b()}&${query}`, tenant.key);
      t.deepEqual([r.status, r.body], [400, { error }], `${path} ${query}`);
    }
  }
  for (const ok of [
    'date_from=2024-02-29&date_to=2024-02-29',
    'date_from=2000-01-01&date_to=2099-12-31',
    'date_from=2026-03-01T00:00:00%2B05:30&date_to=2026-03-01',
  ]) {
    t.is((await get(server, `/api/v1/citations?${b()}&${ok}`, tenant.key)).status, 200, ok);
  }
});

test.serial('a cursor the service did not issue is 400 "cursor is invalid"', async (t) => {
  const raw = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const forged = [
    raw(['2026-11-01T06:00:00.000Z', '------------------------------------']),
    raw(['+275760-09-13T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']),
    raw(['2026-02-30T00:00:00.000Z', '00000000-0000-4000-8000-000000000000']),
    raw(['2026-11-01T06:00:00Z', '00000000-0000-4000-8000-000000000000']),
    raw(['2026-11-01T06:00:00.000Z', '00000000-0000-4000-8000-000000000000', 1]),
    raw({ at: '2026-11-01T06:00:00.000Z' }),
    'bm9wZQ',
    '!!!',
    'x'.repeat(300),
  ];
  for (const cursor of forged) {
    const r = await get(server, `/api/v1/shopping-cards?${b()}&cursor=${encodeURIComponent(cursor)}`, tenant.key);
    t.deepEqual([r.status, r.body], [400, { error: 'cursor is invalid' }], cursor.slice(0, 60));
  }
  const issued = encodeCursor({ at: '2026-11-01T06:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' });
  const page = await get(server, `/api/v1/shopping-cards?${b()}&cursor=${issued}`, tenant.key);
  t.deepEqual([page.status, page.body], [200, { cards: [], next_cursor: null }]);
});

test.serial(
  "a well-shaped cursor without the service's signature, or an issued one altered, is refused on every list",
  async (t) => {
    const raw = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const issued = encodeCursor({ at: '2026-11-01T06:00:00.000Z', id: '00000000-0000-4000-8000-000000000000' });
    const bytes = Buffer.from(issued, 'base64url');
    const flipped = (at: number) => {
      const copy = Buffer.from(bytes);
      copy[at] ^= 1;
      return copy.toString('base64url');
    };
    const refused = [
      // What cursors were before they were signed: it paged from the top.
      raw(['2099-01-01T00:00:00.000Z', 'ffffffff-ffff-4fff-bfff-ffffffffffff']),
      raw(['2026-11-01T06:00:00.000Z', '00000000-0000-4000-8000-000000000000']),
      flipped(2), // the instant altered
      flipped(bytes.length - 1), // the signature altered
      issued.slice(0, -2),
      `${issued}AA`,
    ];
    const listing = operations.filter((op) => 'cursor' in (op.params as { shape?: object }).shape!);
    t.true(listing.length >= 3, listing.map((op) => op.name).join());
    const auth = { authorization: `Bearer ${tenant.key}` };
    let id = 0;
    for (const op of listing) {
      for (const cursor of refused) {
        const prefixes = ['/api/mcp', ...(op.metrics ? ['/api/v1'] : [])];
        for (const prefix of prefixes) {
          const r = await get(server, `${prefix}${operationPath(op)}?${b()}&cursor=${cursor}`, tenant.key);
          t.deepEqual([r.status, r.body], [400, { error: 'cursor is invalid' }], `${prefix}${operationPath(op)}`);
        }
        if (op.tool) {
          const arguments_ = { brand_id: tenant.brandId, cursor };
          const message = {
            jsonrpc: '2.0',
            id: ++id,
            method: 'tools/call',
            params: { name: op.tool, arguments: arguments_ },
          };
          const r = await post(server, message, auth);
          t.true(r.body.result?.isError, op.tool);
          t.is(r.body.result?.content?.[0]?.text, 'cursor is invalid', op.tool);
        }
      }
      const page = await get(server, `/api/mcp${operationPath(op)}?${b()}&cursor=${issued}`, tenant.key);
      t.is(page.status, 200, `${op.name} with an issued cursor`);
    }
  },
);

test.serial('tools/call with malformed params is -32602 naming the field, not a raw zod dump', async (t) => {
  const auth = { authorization: `Bearer ${tenant.key}` };
  t.is((await post(server, initialize, auth)).status, 200);
  const cases: [unknown, RegExp][] = [
    [{ name: 'list_brands', arguments: 'x' }, /arguments must be an object/],
    [{ name: 'list_brands', arguments: [1] }, /arguments must be an object/],
    [{ arguments: {} }, /name is required/],
    [{ name: 42 }, /name is required/],
    ['x', /params must be an object/],
  ];
  for (const [params, message] of cases) {
    const r = await post(server, { jsonrpc: '2.0', id: 7, method: 'tools/call', params }, auth);
    t.is(r.body.id, 7);
    t.is(r.body.error?.code, -32602, JSON.stringify(params));
    t.regex(r.body.error.message, message);
    t.notRegex(r.body.error.message, /"code"|"path"|invalid_type/);
  }
  // A tool's own validation stays an isError result with the REST message.
  const own = await post(
    server,
    { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'list_topics', arguments: {} } },
    auth,
  );
  t.deepEqual(own.body.result?.content?.[0]?.text, 'brand_id is required');
  t.true(own.body.result.isError);
});

test.serial('every spelling of /api/ counts against the rate limit', async (t) => {
  let statuses: number[] = [];
  for (let i = 0; i < LIMIT + 5; i++) {
    const path = ['/Api/v1/brands', '/API/MCP/WEBHOOKS', '/aPi/v1/whoami'][i % 3];
    statuses.push((await get(server, path)).status);
  }
  statuses = statuses.slice(-5);
  t.deepEqual(statuses, [429, 429, 429, 429, 429]);
});
