// The workspace tools (docs/workspace.md) through the SDK's own MCP client: a brand set up
// from nothing by tool calls, as an assistant would at a user's request; its changes visible over
// REST; refusals with the REST message as isError; and the write tools annotated and described as
// run only at the user's request.
// test-process: shared
import test, { type ExecutionContext } from 'ava';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { call, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { toolsByName } from '../../src/mcp/tools.ts';
import { connect } from './client.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '100000', REANALYSIS_WORKER: '0' });
});
test.after.always(async () => {
  await server?.stop();
});

/** A successful call's structured content, which its text block repeats. */
async function tool(t: ExecutionContext, client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result: any = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name}: ${result.content[0].text}`);
  t.deepEqual(JSON.parse(result.content[0].text), result.structuredContent, name);
  return result.structuredContent;
}

async function refused(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result: any = await client.callTool({ name, arguments: args });
  if (!result.isError) throw new Error(`${name} was not refused: ${JSON.stringify(result.structuredContent)}`);
  return result.content[0].text;
}

test('an assistant sets a brand up from nothing with the tools; REST sees the same objects', async (t) => {
  const tenant = await seedTenant(server, []);
  const client = await connect(server, tenant.key);

  const brand = await tool(t, client, 'create_brand', {
    name: 'Pied Piper',
    domains: ['piedpiper.example'],
    region: 'US',
  });
  t.like(brand, { name: 'Pied Piper', slug: 'pied-piper', region: 'US' });
  t.is(await refused(client, 'create_brand', { name: 'Pied Piper' }), 'Brand "pied-piper" already exists');

  const rival = await tool(t, client, 'add_competitor', {
    brand_id: brand.id,
    name: 'Hooli',
    domains: ['hooli.example'],
  });
  t.like(rival, { name: 'Hooli', reanalysis_queued: true });
  t.is(
    await refused(client, 'add_competitor', { brand_id: brand.id, name: 'Hooli' }),
    'Competitor "Hooli" already exists',
  );
  const listed = await tool(t, client, 'list_competitors', { brand_id: brand.id });
  t.deepEqual(
    listed.items.map((c: any) => c.name),
    ['Hooli'],
  );

  const topic = await tool(t, client, 'create_topic', { brand_id: brand.id, name: 'Compression' });
  const added = await tool(t, client, 'add_prompts', {
    brand_id: brand.id,
    topic_id: topic.id,
    prompts: [{ text: 'best compression software', platforms: ['chatgpt', 'grok'] }, { text: 'middle-out' }],
  });
  t.deepEqual(added.platforms_not_in_plan, ['grok']);
  const prompt = added.prompts[0];
  t.is(
    await refused(client, 'update_prompt', { prompt_id: prompt.id, text: 'a better text' }),
    "text cannot change: it identifies the prompt's history; deactivate the prompt and add another",
  );
  const paused = await tool(t, client, 'update_prompt', { prompt_id: prompt.id, is_active: false, regions: ['GB'] });
  t.like(paused, { id: prompt.id, is_active: false, regions: ['GB'], text: 'best compression software' });
  const renamed = await tool(t, client, 'update_topic', { topic_id: topic.id, name: 'Data compression' });
  t.like(renamed, { name: 'Data compression', prompt_count: 2 });
  const changed = await tool(t, client, 'update_brand', { brand_id: brand.id, aliases: ['Pied Piper Inc'] });
  t.like(changed, { aliases: ['Pied Piper Inc'], reanalysis_queued: true });
  const changedRival = await tool(t, client, 'update_competitor', { competitor_id: rival.id, aliases: ['Hooli XYZ'] });
  t.like(changedRival, { aliases: ['Hooli XYZ'], reanalysis_queued: true });

  const status = await tool(t, client, 'get_reanalysis_status', { brand_id: brand.id });
  t.like(status, { brand_id: brand.id, state: 'queued', progress: null, error: null });

  // The same state over REST.
  const rest = await call(server, 'GET', `/api/mcp/prompts?brand_id=${brand.id}`, { key: tenant.key });
  t.deepEqual(rest.body.map((p: any) => [p.text, p.topic_name, p.is_active]).sort(), [
    ['best compression software', 'Data compression', false],
    ['middle-out', 'Data compression', true],
  ]);
  const restStatus = await call(server, 'GET', `/api/mcp/brands/${brand.id}/reanalysis`, { key: tenant.key });
  t.deepEqual(restStatus.body, status);

  const removed = await tool(t, client, 'remove_competitor', { competitor_id: rival.id });
  t.deepEqual(removed, { id: rival.id, removed: true, reanalysis_queued: true });
  t.is(await refused(client, 'remove_competitor', { competitor_id: rival.id }), 'Competitor not found');
  t.is(await refused(client, 'add_competitor', { brand_id: brand.id, name: 'X', url: 'x' }), 'Unknown field: url');
  await client.close();
});

test("another organization's objects are not found through the tools either", async (t) => {
  const mine = await seedTenant(server);
  const theirs = await seedTenant(server);
  const client = await connect(server, mine.key);
  t.is(await refused(client, 'update_brand', { brand_id: theirs.brandId, name: 'x' }), 'Brand not found');
  t.is(await refused(client, 'get_reanalysis_status', { brand_id: theirs.brandId }), 'Brand not found');
  t.is(await refused(client, 'remove_competitor', { competitor_id: theirs.competitorIds[0] }), 'Competitor not found');
  t.is(await refused(client, 'update_topic', { topic_id: theirs.topicIds[0], is_active: false }), 'Topic not found');
  t.is(
    await refused(client, 'update_prompt', { prompt_id: theirs.promptIds[0], is_active: false }),
    'Prompt not found',
  );
  t.is(await refused(client, 'add_prompts', { brand_id: theirs.brandId, prompts: [{ text: 'x' }] }), 'Brand not found');
  await client.close();
});

test('the write tools say they run only at the user’s request, with hints that fit what they do', async (t) => {
  const tenant = await seedTenant(server);
  const client = await connect(server, tenant.key);
  const { tools } = await client.listTools();
  const byName = new Map(tools.map((x) => [x.name, x]));
  const hints: Record<string, [destructive: boolean, idempotent: boolean]> = {
    create_brand: [false, false],
    add_competitor: [false, false],
    create_topic: [false, false],
    add_prompts: [false, false],
    update_brand: [true, true],
    update_competitor: [true, true],
    update_topic: [true, true],
    update_prompt: [true, true],
    remove_competitor: [true, true],
  };
  for (const [name, [destructive, idempotent]] of Object.entries(hints)) {
    const listed = byName.get(name)!;
    t.like(listed.annotations, {
      readOnlyHint: false,
      destructiveHint: destructive,
      idempotentHint: idempotent,
      openWorldHint: false,
    });
    t.regex(listed.description!, /only at the user's explicit request/, name);
    // The path id is an argument named for what it identifies, and unknown arguments are refused.
    t.false('id' in (listed.inputSchema.properties ?? {}), name);
    t.is(listed.inputSchema.additionalProperties, false, name);
  }
  for (const name of ['list_competitors', 'get_reanalysis_status']) {
    t.true(byName.get(name)!.annotations!.readOnlyHint, name);
    t.truthy(toolsByName.get(name));
  }
  await client.close();
});
