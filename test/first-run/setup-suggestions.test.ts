// The set-up page's suggestions (setup-suggestions, CONTRACT section 25) from the two sources the
// templates do not cover: the configured model (LLM_BASE_URL, here a local OpenAI-compatible fake)
// and imported keyword volumes that name the category. Each says where it came from; a failing
// model leaves the other suggestions and says why; nothing is created.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { get, seedTenant, startTestServer, uniq, type TestServer } from '../helpers/server.ts';
import { cli } from '../helpers/cli.ts';
import { fakeLlm, ok, type FakeLlm } from '../helpers/fake-llm.ts';

let server: TestServer;
let llm: FakeLlm;
test.before(async () => {
  llm = await fakeLlm([{ kind: 'status', status: 500 }]);
  server = await startTestServer({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'setup-model', LLM_API_KEY: 'sk-llm' });
});
test.after.always(async () => {
  await server?.stop();
  await llm?.close();
});

const MODEL_ANSWER = {
  competitors: [
    { name: 'Northwind Kayaks', domain: 'https://www.northwind.example/shop' },
    { name: 'Globex', domain: 'globex.example' }, // tracked already
    { name: 'Acme', domain: 'acme.example' }, // the brand itself
  ],
  topics: [{ name: 'Kayak buying', prompts: ['which sea kayak is best for beginners', 'sea kayak vs touring kayak'] }],
};

test.serial("the model's competitors, topics and prompts when LLM_BASE_URL is set", async (t) => {
  const tenant = await seedTenant(server);
  llm.play([ok(MODEL_ANSWER)]);
  const r = await get(
    server,
    `/api/mcp/setup-suggestions?brand_id=${tenant.brandId}&kind=online_store&category=sea+kayaks`,
    tenant.key,
  );
  t.is(r.status, 200, JSON.stringify(r.body));
  t.deepEqual(r.body.model, { configured: true, error: null });
  // Neither the brand nor a tracked competitor is suggested; the domain is made bare.
  t.deepEqual(r.body.competitors, [{ name: 'Northwind Kayaks', domains: ['www.northwind.example'], source: 'model' }]);
  t.deepEqual(
    r.body.topics.filter((x: any) => x.source === 'model'),
    [
      {
        name: 'Kayak buying',
        source: 'model',
        prompts: [
          { text: 'which sea kayak is best for beginners', source: 'model', volume: null },
          { text: 'sea kayak vs touring kayak', source: 'model', volume: null },
        ],
      },
    ],
  );
  // The templates are still there, the category filled in.
  t.true(r.body.topics.some((x: any) => x.source === 'template' && x.name === 'Best sea kayaks'));
  // The model was asked about this brand, with its key and model.
  const asked = llm.requests.at(-1);
  t.is(asked.authorization, 'Bearer sk-llm');
  t.is(asked.body.model, 'setup-model');
  t.regex(JSON.stringify(asked.body.messages), /Brand: Acme\\nWebsite: acme\.example\\nCategory: sea kayaks/);
  // Suggestions create nothing.
  const competitors = await get(server, `/api/mcp/competitors?brand_id=${tenant.brandId}`, tenant.key);
  t.deepEqual(
    competitors.body.map((c: any) => c.name),
    ['Globex'],
  );
});

test.serial('a failing model says why and leaves the other suggestions', async (t) => {
  const tenant = await seedTenant(server);
  llm.play([{ kind: 'status', status: 500 }]);
  const r = await get(server, `/api/mcp/setup-suggestions?brand_id=${tenant.brandId}&category=crm`, tenant.key);
  t.is(r.status, 200);
  t.true(r.body.model.configured);
  t.regex(r.body.model.error, /^The model gave no suggestions: /);
  t.deepEqual(r.body.competitors, []);
  t.true(r.body.topics.length > 0);
  t.true(r.body.topics.every((x: any) => x.source === 'template'));
});

test.serial('imported keyword volumes naming the category, most searched first, in the brand region', async (t) => {
  const tenant = await seedTenant(server); // region US
  const word = uniq('kayak').replace('-', '');
  const file = path.join(server.dataDir, `${uniq('volumes')}.jsonl`);
  fs.writeFileSync(
    file,
    [
      { keyword: `best inflatable ${word}`, volume: 900, region: 'US' },
      { keyword: `inflatable ${word} for two`, volume: 2400 },
      { keyword: `cheap inflatable ${word}`, volume: 5000, region: 'GB' }, // another region
      { keyword: `${word} paddles`, volume: 8000, region: 'US' }, // not every word of the category
    ]
      .map((l) => JSON.stringify(l))
      .join('\n'),
  );
  const imported = await cli(['volumes', 'import', file], server.env);
  t.is(imported.code, 0, imported.stderr);
  llm.play([ok({ competitors: [], topics: [] })]);
  const r = await get(
    server,
    `/api/mcp/setup-suggestions?brand_id=${tenant.brandId}&category=${encodeURIComponent(`Inflatable ${word}`)}`,
    tenant.key,
  );
  t.is(r.status, 200);
  t.deepEqual(r.body.volumes, [
    { text: `inflatable ${word} for two`, source: 'volumes', volume: 2400 },
    { text: `best inflatable ${word}`, source: 'volumes', volume: 900 },
  ]);
});
