// The import-sources operation (docs/api.md section 31): the trackers a brand imported answers
// from, by name, with how many answers each, alike on REST and as the MCP tool list_import_sources;
// an import run again counts nothing twice, a brand that imported nothing lists none, another
// organization's brand is 404, and the Metrics API does not serve it.
// test-process: shared
import test from 'ava';
import { get, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { importTracker } from '../../src/tracking/ingest/tracker-import.ts';
import { brandInOrganization } from '../../src/tenancy/brands.ts';
import { connect } from '../mcp/client.ts';

let server: TestServer;
let tenant: Tenant;
let other: Tenant;

// Columns named as the fields, so no mapping is needed. The last line's prompt is not the brand's:
// refused, so not counted.
const OTHERTOOL = `text,platform,date,prompt,mentioned
Acme is the CRM most startups pick.,chatgpt,2026-11-02,best crm for startups,yes
Globex leads; Acme follows.,perplexity,2026-11-03,best crm for startups,yes
Spreadsheets are enough.,chatgpt,2026-11-04,best crm for startups,no
Acme elsewhere.,chatgpt,2026-11-04,best crm for enterprises,yes
`;
const ZETA = `text,platform,date,prompt
Globex is the one to buy.,chatgpt,2026-11-05,best crm for startups
`;

async function importFile(t: Tenant, format: string, body: string) {
  const brand = await brandInOrganization(server.stores.pg, t.organizationId, t.brandId);
  return importTracker(server.stores, { body, fileName: `${format}.csv`, brand, format, map: {} });
}

test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
  tenant = await seedTenant(server);
  other = await seedTenant(server);
  // Imported in the opposite order of their names: the list is by name.
  await importFile(tenant, 'zeta', ZETA);
  await importFile(tenant, 'othertool', OTHERTOOL);
  // Run again: the same answers, nothing counted twice.
  await importFile(tenant, 'othertool', OTHERTOOL);
});
test.after.always(async () => {
  await server?.stop();
});

const EXPECTED = [
  { source: 'othertool', answers: 3 },
  { source: 'zeta', answers: 1 },
];

test('the trackers imported from, by name, with their answers; the MCP tool answers the same', async (t) => {
  const rest = await get(server, `/api/mcp/import-sources?brand_id=${tenant.brandId}`, tenant.key);
  t.is(rest.status, 200);
  t.deepEqual(rest.body, EXPECTED);
  const client = await connect(server, tenant.key);
  try {
    const tool: any = await client.callTool({ name: 'list_import_sources', arguments: { brand_id: tenant.brandId } });
    t.falsy(tool.isError);
    t.deepEqual(tool.structuredContent, { items: EXPECTED });
  } finally {
    await client.close();
  }
  // Each name is one the figures' source filter takes, and counts exactly those answers.
  for (const { source, answers } of EXPECTED) {
    const summary = await get(
      server,
      `/api/mcp/visibility-summary?brand_id=${tenant.brandId}&source=${source}`,
      tenant.key,
    );
    t.is(summary.status, 200, source);
    t.is(summary.body.totals.resultCount, answers, source);
  }
});

test('a brand that imported nothing lists no tracker', async (t) => {
  const rest = await get(server, `/api/mcp/import-sources?brand_id=${other.brandId}`, other.key);
  t.is(rest.status, 200);
  t.deepEqual(rest.body, []);
  const client = await connect(server, other.key);
  try {
    const tool: any = await client.callTool({ name: 'list_import_sources', arguments: { brand_id: other.brandId } });
    t.deepEqual(tool.structuredContent, { items: [] });
  } finally {
    await client.close();
  }
});

test("another organization's brand is 404 on both surfaces; the Metrics API does not serve it", async (t) => {
  const rest = await get(server, `/api/mcp/import-sources?brand_id=${tenant.brandId}`, other.key);
  t.is(rest.status, 404);
  t.deepEqual(rest.body, { error: 'Brand not found' });
  const client = await connect(server, other.key);
  try {
    const tool: any = await client.callTool({ name: 'list_import_sources', arguments: { brand_id: tenant.brandId } });
    t.true(tool.isError);
    t.deepEqual(tool.content, [{ type: 'text', text: 'Brand not found' }]);
  } finally {
    await client.close();
  }
  const missing = await get(server, `/api/mcp/import-sources`, tenant.key);
  t.is(missing.status, 400);
  t.deepEqual(missing.body, { error: 'brand_id is required' });
  const v1 = await get(server, `/api/v1/import-sources?brand_id=${tenant.brandId}`, tenant.key);
  t.is(v1.status, 404);
});
