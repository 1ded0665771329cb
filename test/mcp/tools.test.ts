// The MCP tools against the running app, through the SDK's own client: the list is exactly the
// tools of docs/api.md section 8, and every read tool answers exactly what its REST twin answers,
// for the same arguments, errors included.
// test-process: shared
import { randomUUID } from 'node:crypto';
import test from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { seedTenant, startTestServer, call, type Tenant, type TestServer } from '../helpers/server.ts';
import { operations } from '../../src/operations/index.ts';
import { tools, toolsByName, type McpTool } from '../../src/mcp/tools.ts';
import { idArgument, pathParam } from '../../src/mcp/schemas.ts';
import { IngestCache, ingestBatch } from '../../src/tracking/ingest/batch.ts';
import { validateAnswer } from '../../src/tracking/ingest/answer-schema.ts';
import { connect, restTwin } from './client.ts';

// docs/api.md section 8.
const CONTRACT_TOOLS = [
  'list_brands',
  'get_visibility_summary',
  'get_visibility_trend',
  'get_competitor_comparison',
  'list_citations',
  'list_prompts',
  'get_prompt_performance',
  'get_prompt_volumes',
  'list_topics',
  'list_topic_suggestions',
  'accept_topic_suggestion',
  'dismiss_topic_suggestion',
  'list_content_opportunities',
  'get_content_opportunity',
  'generate_content_brief',
  'generate_content_draft',
  'update_opportunity_status',
  'list_site_audits',
  'run_site_audit',
  'get_site_audit',
  'get_site_audit_quota',
  'get_ai_traffic',
  'list_shopping_cards',
  'get_product_visibility',
  // Section 11.
  'list_answers',
  'get_answer',
  // Section 12.
  'list_search_queries',
  'get_visibility_confidence',
  // Section 13.
  'get_sentiment',
  // Section 14.
  'get_ai_crawlers',
  // Section 15.
  'create_alert_rule',
  'list_alert_rules',
  'delete_alert_rule',
  'list_alerts',
  // Workspace set-up (docs/workspace.md).
  'create_brand',
  'update_brand',
  'add_competitor',
  'update_competitor',
  'remove_competitor',
  'list_competitors',
  'create_topic',
  'update_topic',
  'add_prompts',
  'update_prompt',
  'get_reanalysis_status',
  // Citation gap and change (docs/api.md section 21).
  'get_citation_gap',
  'get_visibility_change',
  // The honest figures (docs/api.md section 21, "Honest figures on screen").
  'get_entity_trend',
  'get_untracked_brands',
  // Agreement with another tracker, and the trackers imported from (docs/api.md section 31).
  'get_import_agreement',
  'list_import_sources',
];
const WRITE_TOOLS = [
  'accept_topic_suggestion',
  'dismiss_topic_suggestion',
  'generate_content_brief',
  'generate_content_draft',
  'update_opportunity_status',
  'run_site_audit',
  'create_alert_rule',
  'delete_alert_rule',
  'create_brand',
  'update_brand',
  'add_competitor',
  'update_competitor',
  'remove_competitor',
  'create_topic',
  'update_topic',
  'add_prompts',
  'update_prompt',
];
const QUOTA_TOOLS = ['generate_content_brief', 'generate_content_draft', 'run_site_audit'];

let server: TestServer;
// The whole file comes from one address: a roomy limit keeps the limiter out of these tests.
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000' });
});
test.after.always(async () => {
  await server?.stop();
});

/** A tenant with a few answers (one in shopping mode), so the figures are not all zero. */
async function tenantWithAnswers(): Promise<Tenant> {
  const tenant = await seedTenant(server);
  const [prompt] = tenant.promptIds;
  const lines = [
    {
      prompt_id: prompt,
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      collected_at: '2026-11-01T06:00:00Z',
      text: 'Acme is great. Globex too. [Acme](https://acme.example/x).',
      citations: [{ url: 'https://acme.example/pricing', title: 'Pricing' }, { url: 'https://www.globex.example/' }],
    },
    {
      prompt_id: prompt,
      platform: 'perplexity',
      model: 'sonar',
      region: 'US',
      collected_at: '2026-11-03T07:00:00Z',
      text: 'Globex leads; Acme Inc follows.',
      citations: [{ url: 'https://news.example/crm' }],
    },
    {
      prompt_id: prompt,
      platform: 'chatgpt',
      model: 'gpt-4o',
      region: 'US',
      mode: 'shopping',
      collected_at: '2026-11-04T06:00:00Z',
      text: 'Products',
      citations: [],
      products: [
        { position: 1, title: 'Acme CRM Pro', brand: 'Acme', price: '$99', merchant_url: 'https://shop.example/p/1' },
      ],
    },
  ];
  const answers = lines.map((l) => {
    const v = validateAnswer(l);
    if (!v.ok) throw new Error(v.error);
    return v.answer;
  });
  await ingestBatch(server.stores, new IngestCache(server.stores), answers);
  return tenant;
}

/** Arguments any tool can be called with: the brand, a random id (a 404 on both surfaces), and a value per other required parameter. */
function genericArgs(tool: McpTool, tenant: Tenant): Record<string, unknown> {
  const schema = tool.definition.inputSchema;
  const args: Record<string, unknown> = {};
  const idArg = idArgument(tool.op);
  for (const [name, prop] of Object.entries(schema.properties ?? {}) as [string, any][]) {
    if (name === 'brand_id') args[name] = tenant.brandId;
    else if (name === idArg) args[name] = randomUUID();
    else if (schema.required?.includes(name)) args[name] = prop.enum?.[0] ?? 'x';
  }
  return args;
}

/** Further argument sets for tools that have them, typed as a model sends them (numbers, booleans, arrays). */
const MORE_ARGS: Record<string, (t: Tenant) => Record<string, unknown>[]> = {
  list_prompts: (t) => [
    { brand_id: t.brandId, limit: 1, is_active: true },
    { brand_id: t.brandId, topic_id: t.topicIds[0] },
    { brand_id: 'acme' },
  ],
  list_topics: () => [{}],
  get_visibility_summary: (t) => [
    { brand_id: t.brandId, date_from: '2026-11-01', date_to: '2026-11-02', model: ['gpt-4o'] },
    { brand_id: t.brandId, date_from: 'soon' },
  ],
  get_visibility_trend: (t) => [{ brand_id: t.brandId, granularity: 'week', region: 'US' }],
  get_competitor_comparison: (t) => [{ brand_id: t.brandId, topic_id: t.topicIds[0] }],
  list_citations: (t) => [
    { brand_id: t.brandId, limit: 1, source_filter: 'owned' },
    { brand_id: t.brandId, limit: 500 },
  ],
  get_prompt_performance: (t) => [{ brand_id: t.brandId, sort_by: 'mentions', order: 'asc', limit: 2 }],
  list_shopping_cards: (t) => [
    { brand_id: t.brandId, limit: 1 },
    { brand_id: t.brandId, role: 'own' },
  ],
  list_answers: (t) => [
    { brand_id: t.brandId, limit: 1 },
    { brand_id: t.brandId, mode: 'shopping' },
    { brand_id: t.brandId, mentioned: 'brand', model: ['gpt-4o'] },
    { brand_id: t.brandId, mentioned: 'none', cursor: 'bm9wZQ' },
    { brand_id: t.brandId, mentioned: 'brand', sentiment: 'positive', cited: 'brand', q: 'crm best', gap: false },
    { brand_id: t.brandId, gap: true, mentioned: t.competitorIds[0] },
  ],
  get_product_visibility: (t) => [{ brand_id: t.brandId, product_title: 'Acme CRM Pro' }, { brand_id: t.brandId }],
  get_ai_traffic: (t) => [{ brand_id: t.brandId, date_from: '2026-11-01', date_to: '2026-11-30' }],
  get_ai_crawlers: (t) => [
    { brand_id: t.brandId },
    { brand_id: t.brandId, date_from: '2026-11-01', date_to: '2026-11-30' },
    { brand_id: t.brandId, date_from: '2026-11-30', date_to: '2026-11-01' },
  ],
  get_visibility_confidence: (t) => [
    { brand_id: t.brandId, date_from: '2026-11-01', date_to: '2026-11-03', model: ['gpt-4o', 'sonar'], region: 'US' },
    { brand_id: t.brandId, date_from: '2026-11-03', date_to: '2026-11-01' },
  ],
  get_citation_gap: (t) => [
    { brand_id: t.brandId, limit: 1, model: ['gpt-4o'], topic_id: t.topicIds[0] },
    { brand_id: t.brandId, competitor_id: t.competitorIds[0], date_from: '2026-11-01', date_to: '2026-11-30' },
    { brand_id: t.brandId, competitor_id: 'nope' },
  ],
  get_entity_trend: (t) => [
    {
      brand_id: t.brandId,
      date_from: '2026-11-01',
      date_to: '2026-11-30',
      granularity: 'week',
      metric: 'mention_rate',
    },
    { brand_id: t.brandId, competitor_id: [t.competitorIds[0]], topic_id: t.topicIds[0] },
    { brand_id: t.brandId, competitor_id: ['nope'] },
  ],
  get_untracked_brands: (t) => [
    { brand_id: t.brandId, date_from: '2026-11-01', date_to: '2026-11-30', model: ['gpt-4o'] },
  ],
  get_visibility_change: (t) => [
    { brand_id: t.brandId, date_from: '2026-11-01', date_to: '2026-11-30', region: 'US' },
    { brand_id: t.brandId, date_from: '2026-11-03', date_to: '2026-11-01' },
  ],
  get_sentiment: (t) => [
    { brand_id: t.brandId, model: ['gpt-4o'], region: 'US' },
    { brand_id: t.brandId, topic_id: t.topicIds[0], date_from: '2026-11-01', date_to: '2026-11-30' },
  ],
  list_search_queries: (t) => [
    { brand_id: t.brandId, limit: 1, model: ['gpt-4o'], topic_id: t.topicIds[0] },
    { brand_id: t.brandId, prompt_id: t.promptIds[0], date_from: '2026-11-01' },
  ],
};

async function assertParity(
  t: any,
  client: Client,
  tool: McpTool,
  args: Record<string, unknown>,
  key: string,
): Promise<number> {
  const label = `${tool.name} ${JSON.stringify(args)}`;
  const rest = await restTwin(server, tool, args, key);
  const result: any = await client.callTool({ name: tool.name, arguments: args });
  if (rest.status === 200) {
    t.falsy(result.isError, `${label}: ${JSON.stringify(result.content)}`);
    t.deepEqual(result.structuredContent, Array.isArray(rest.body) ? { items: rest.body } : rest.body, label);
    t.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, `${label}: text block`);
  } else {
    t.true(result.isError, `${label}: REST answered ${rest.status}`);
    t.is(result.content[0].text, rest.body.error, label);
  }
  return rest.status;
}

test('tools/list returns every registry tool, with input and output schemas and all four annotations', async (t) => {
  const { key } = await seedTenant(server);
  const client = await connect(server, key);
  const { tools: listed } = await client.listTools();
  const expected = operations.filter((op) => op.tool).map((op) => op.tool!);
  t.deepEqual(listed.map((x) => x.name).sort(), [...expected].sort());
  t.deepEqual([...expected].sort(), [...CONTRACT_TOOLS].sort());
  for (const tool of listed) {
    const op = toolsByName.get(tool.name)!.op;
    t.truthy(tool.description && tool.description.length > 40, tool.name);
    t.is(tool.inputSchema.type, 'object', tool.name);
    t.is(tool.outputSchema?.type, 'object', tool.name);
    const a = tool.annotations!;
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
      t.is(typeof a[hint], 'boolean', `${tool.name} ${hint}`);
    }
    t.is(a.readOnlyHint, !op.write, tool.name);
    if (op.write) t.regex(tool.description!, /explicit request/i, tool.name);
    if ('brand_id' in (tool.inputSchema.properties ?? {})) t.regex(tool.description!, /list_brands/, tool.name);
    // The identity comes from the key, never from arguments.
    for (const p of ['organization_id', 'organizationId', 'user_id', 'api_key', 'key'])
      t.false(p in (tool.inputSchema.properties ?? {}), `${tool.name} ${p}`);
    // A path id is an argument named for what it identifies (opportunity_id, audit_id...).
    const param = pathParam(op);
    if (param) {
      t.truthy(op.idArg, `${tool.name}: a path id needs an idArg`);
      t.true(idArgument(op)! in (tool.inputSchema.properties ?? {}), tool.name);
      t.false(param in (tool.inputSchema.properties ?? {}), tool.name);
    }
  }
  await client.close();
});

test('the tools are exactly docs/api.md section 8; its writes are annotated so, its quota tools say so', (t) => {
  t.deepEqual(tools.map((tool) => tool.name).sort(), [...CONTRACT_TOOLS].sort());
  for (const tool of tools)
    t.is(tool.definition.annotations!.readOnlyHint, !WRITE_TOOLS.includes(tool.name), tool.name);
  t.deepEqual(
    tools
      .filter((tool) => tool.op.quota)
      .map((tool) => tool.name)
      .sort(),
    [...QUOTA_TOOLS].sort(),
  );
  for (const name of QUOTA_TOOLS) t.regex(toolsByName.get(name)!.definition.description!, /quota|allowance/i, name);
});

test("every read tool gives its REST twin's body as structuredContent, and its error message as isError", async (t) => {
  const tenant = await tenantWithAnswers();
  const client = await connect(server, tenant.key);
  await client.listTools(); // the client then checks each structuredContent against the outputSchema
  const reads = tools.filter((x) => !x.op.write);
  t.is(reads.length, CONTRACT_TOOLS.length - WRITE_TOOLS.length);
  const statuses: number[] = [];
  for (const tool of reads) {
    const sets = [genericArgs(tool, tenant), ...(MORE_ARGS[tool.name]?.(tenant) ?? [])];
    for (const args of sets) statuses.push(await assertParity(t, client, tool, args, tenant.key));
  }
  t.log(
    `${reads.length} read tools, ${statuses.length} calls: ${statuses.filter((s) => s === 200).length} answered, ${statuses.filter((s) => s !== 200).length} errors`,
  );
  // The figures are not all empty: the seeded answers reach the summary.
  const summary: any = await client.callTool({
    name: 'get_visibility_summary',
    arguments: { brand_id: tenant.brandId },
  });
  t.is(summary.structuredContent.totals?.resultCount, 2, JSON.stringify(summary.structuredContent));
  await client.close();
});

test("another organization's brand gives the REST 404 message as isError", async (t) => {
  const mine = await seedTenant(server);
  const theirs = await seedTenant(server);
  const client = await connect(server, mine.key);
  for (const tool of tools.filter((x) => !x.op.write && 'brand_id' in (x.definition.inputSchema.properties ?? {}))) {
    const args = { ...genericArgs(tool, mine), brand_id: theirs.brandId };
    const result: any = await client.callTool({ name: tool.name, arguments: args });
    t.true(result.isError, tool.name);
    const rest = await restTwin(server, tool, args, mine.key);
    t.true(rest.status >= 400, tool.name);
    t.is(result.content[0].text, rest.body.error, tool.name);
    if (rest.status === 404) t.is(rest.body.error, 'Brand not found', tool.name);
  }
  const topics: any = await client.callTool({ name: 'list_topics', arguments: { brand_id: theirs.brandId } });
  t.deepEqual(topics.content, [{ type: 'text', text: 'Brand not found' }]);
  t.true(topics.isError);
  t.is(topics.structuredContent, undefined);
  await client.close();
});

test("list_brands lists the caller's brands, wrapped as {items}", async (t) => {
  const tenant = await seedTenant(server);
  const client = await connect(server, tenant.key);
  const result: any = await client.callTool({ name: 'list_brands', arguments: {} });
  t.deepEqual(
    result.structuredContent.items.map((b: any) => b.id),
    [tenant.brandId],
  );
  await client.close();
});

test('an unknown tool is a protocol error, not a tool result', async (t) => {
  const { key } = await seedTenant(server);
  const client = await connect(server, key);
  const err: any = await t.throwsAsync(client.callTool({ name: 'drop_everything', arguments: {} }));
  t.is(err.code, -32602);
  t.regex(err.message, /Unknown tool: drop_everything/);
  await client.close();
});

test('run_site_audit changes state as its REST twin does: the audit is visible over REST', async (t) => {
  const tenant = await seedTenant(server);
  const other = await seedTenant(server);
  const client = await connect(server, tenant.key);
  const started: any = await client.callTool({
    name: 'run_site_audit',
    arguments: { brand_id: tenant.brandId, url: 'https://www.example.invalid/' },
  });
  t.falsy(started.isError, JSON.stringify(started.content));
  t.like(started.structuredContent, {
    brandId: tenant.brandId,
    url: 'https://www.example.invalid/',
    status: 'running',
  });
  const audit = await call(server, 'GET', `/api/mcp/site-audits/${started.structuredContent.id}`, { key: tenant.key });
  t.is(audit.status, 200);
  t.is(audit.body.id, started.structuredContent.id);
  // (Not the quota count: an audit of an unreachable URL fails at once and gives its unit back.)
  const listed = await call(server, 'GET', `/api/mcp/site-audits?brand_id=${tenant.brandId}`, { key: tenant.key });
  t.deepEqual(
    listed.body.map((a: any) => a.id),
    [started.structuredContent.id],
  );
  // The same write's validation message as REST, and another organization's audit is not found.
  const bad: any = await client.callTool({ name: 'run_site_audit', arguments: { brand_id: tenant.brandId } });
  t.deepEqual([bad.isError, bad.content[0].text], [true, 'url is required']);
  const otherClient = await connect(server, other.key);
  const foreign: any = await otherClient.callTool({
    name: 'get_site_audit',
    arguments: { audit_id: started.structuredContent.id },
  });
  t.deepEqual([foreign.isError, foreign.content[0].text], [true, 'Audit not found']);
  await otherClient.close();
  await client.close();
});
