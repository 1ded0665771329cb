// `apply` and the workspace operations write through the same inserts and updates
// (docs/workspace.md): a workspace file applied with `answerscope apply`, and the same content sent
// as API calls for a second organization, leave the same stored state.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { call, seedTenant, startTestServer, uniq, type Tenant, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ RATE_LIMIT_MAX: '1000000', REANALYSIS_WORKER: '0' });
});
test.after.always(async () => {
  await server?.stop();
});

interface PromptEntry {
  text: string;
  platforms: string[];
  regions: string[];
  is_active?: boolean;
}

const BRANDS: {
  name: string;
  slug: string;
  industry: string;
  region: string;
  domains: string[];
  aliases: string[];
  competitors: { name: string; domains: string[]; aliases: string[] }[];
  topics: { name: string; is_active?: boolean; prompts: PromptEntry[] }[];
  prompts: PromptEntry[];
}[] = [
  {
    name: 'Acme',
    slug: 'acme',
    industry: 'Software',
    region: 'US',
    domains: ['acme.example', 'www.acme-crm.example'],
    aliases: ['Acme Inc', 'ACME'],
    competitors: [
      { name: 'Globex', domains: ['globex.example'], aliases: ['Globex Corp'] },
      { name: 'Initech', domains: [], aliases: [] },
    ],
    topics: [
      {
        name: 'CRM software',
        prompts: [
          { text: 'best crm for startups', platforms: ['chatgpt', 'grok'], regions: ['US', 'GB'] },
          { text: 'crm with email', platforms: ['perplexity'], regions: [], is_active: false },
        ],
      },
      { name: 'Retired', is_active: false, prompts: [{ text: 'old question', platforms: [], regions: ['DE'] }] },
    ],
    prompts: [{ text: 'acme reviews', platforms: ['gemini'], regions: [] }],
  },
  {
    name: 'Hooli',
    slug: 'hooli',
    industry: '',
    region: 'GB',
    domains: ['hooli.example'],
    aliases: [],
    competitors: [],
    topics: [{ name: 'Search', prompts: [{ text: 'best search engine', platforms: [], regions: [] }] }],
    prompts: [],
  },
];

/** The same content, one API call per object, as the app or an assistant would send it. */
async function replay(t: Tenant) {
  const api = async (method: string, p: string, body?: unknown) => {
    const r = await call(server, method, `/api/mcp${p}`, { key: t.key, body });
    if (r.status !== 200) throw new Error(`${method} ${p}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  };
  for (const b of BRANDS) {
    const { competitors, topics, prompts, ...fields } = b;
    const brand = await api('POST', '/brands', fields);
    for (const c of competitors) await api('POST', '/competitors', { brand_id: brand.id, ...c });
    const addPrompts = async (list: PromptEntry[], topicId?: string) => {
      if (!list.length) return;
      const added = await api('POST', '/prompts', {
        brand_id: brand.id,
        topic_id: topicId,
        prompts: list.map(({ text, platforms, regions }) => ({ text, platforms, regions })),
      });
      for (const [i, p] of list.entries())
        if (p.is_active === false) await api('PATCH', `/prompts/${added.prompts[i].id}`, { is_active: false });
    };
    for (const topic of topics) {
      const made = await api('POST', '/topics', { brand_id: brand.id, name: topic.name });
      await addPrompts(topic.prompts, made.id);
      if (topic.is_active === false) await api('PATCH', `/topics/${made.id}`, { is_active: false });
    }
    await addPrompts(prompts);
  }
}

/** Everything stored of an organization's workspace, by natural keys (no ids, no times). */
async function storedState(organizationId: string) {
  const q = async (sql: string) => (await server.stores.pg.query(sql, [organizationId])).rows;
  return {
    brands: await q(
      'SELECT name, slug, industry, region, domains, aliases FROM brands WHERE organization_id = $1 ORDER BY slug',
    ),
    competitors: await q(
      `SELECT b.slug, c.name, c.domains, c.aliases FROM competitors c JOIN brands b ON b.id = c.brand_id
        WHERE b.organization_id = $1 ORDER BY b.slug, c.name`,
    ),
    topics: await q(
      `SELECT b.slug, t.name, t.is_active FROM topics t JOIN brands b ON b.id = t.brand_id
        WHERE b.organization_id = $1 ORDER BY b.slug, t.name`,
    ),
    prompts: await q(
      `SELECT b.slug, t.name AS topic, p.text, p.platforms, p.models, p.regions, p.is_active
         FROM prompts p JOIN brands b ON b.id = p.brand_id LEFT JOIN topics t ON t.id = p.topic_id
        WHERE b.organization_id = $1 ORDER BY b.slug, p.text`,
    ),
  };
}

test('a workspace file applied and the same content sent through the API store the same state', async (t) => {
  const name = uniq('Org');
  const file = path.join(server.dataDir, `${uniq('workspace')}.json`);
  fs.writeFileSync(
    file,
    JSON.stringify({
      organizations: [{ name, plan: 'growth', members: [{ email: `${uniq('ana')}@example.test` }], brands: BRANDS }],
    }),
  );
  const applied = await cli(['apply', file], server.env);
  t.is(applied.code, 0, applied.stderr);
  const fromFile = await storedState(applied.json.organizations[0].id);

  const other = await seedTenant(server, []);
  await replay(other);
  const fromApi = await storedState(other.organizationId);

  t.deepEqual(fromApi, fromFile);
  // Not empty, and as the file says (the www. of a domain is dropped on both paths).
  t.is(fromFile.prompts.length, 5);
  t.deepEqual(fromFile.brands[0].domains, ['acme.example', 'acme-crm.example']);
  t.deepEqual(
    fromFile.prompts.map((p: any) => [p.text, p.topic, p.is_active]),
    [
      ['acme reviews', null, true],
      ['best crm for startups', 'CRM software', true],
      ['crm with email', 'CRM software', false],
      ['old question', 'Retired', true],
      ['best search engine', 'Search', true],
    ],
  );
});
