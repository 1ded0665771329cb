// Briefs and drafts through the API with an OpenAI-compatible endpoint configured (a local fake):
// the model's output is validated and saved, and a failed generation is a 500 that gives its
// quota unit back and leaves the saved brief as it was.
// test-process: shared
import test from 'ava';
import { call, get, startTestServer, type TestServer } from '../helpers/server.ts';
import { ingest, runJob, seedContentTenant, trackingAnswers, type ContentTenant } from './helpers.ts';
import { builtinBrief } from '../../src/content/llm/builtin-brief.ts';
import { builtinDraft } from '../../src/content/llm/builtin-draft.ts';
import { Draft } from '../../src/content/schemas.ts';
import { quotaPeriod } from '../../src/tenancy/quotas.ts';
import { fakeLlm, ok, type FakeLlm } from '../helpers/fake-llm.ts';

let server: TestServer;
let llm: FakeLlm;
test.before(async () => {
  llm = await fakeLlm([{ kind: 'status', status: 500 }]);
  server = await startTestServer({
    LLM_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'fake-model',
    LLM_API_KEY: 'sk-fake',
    LLM_TIMEOUT_MS: '2500',
  });
});
test.after.always(async () => {
  await server?.stop();
  await llm?.close();
});

const sample = builtinBrief({
  brand: { name: 'Acme', domains: ['acme.example'], industry: '', region: '' },
  opportunity: {
    id: '',
    type: 'owned',
    title: '',
    description: '',
    prompt_text: 'best crm for startups',
    source_data: {},
  },
});
const modelBrief = { ...sample, suggestedTitle: 'Written by the model' };
const modelDraft = builtinDraft(
  {
    brand: { name: 'Acme', domains: ['acme.example'], industry: '', region: '' },
    opportunity: {
      id: '',
      type: 'owned',
      title: '',
      description: '',
      prompt_text: 'best crm for startups',
      source_data: {},
    },
  },
  modelBrief,
);

async function opportunity(): Promise<{ x: ContentTenant; url: string }> {
  const x = await seedContentTenant(server);
  await ingest(server, trackingAnswers(x));
  await runJob(server, 'generate-opportunities', x.brandId);
  const list = (await get(server, `/api/mcp/content-opportunities?brand_id=${x.brandId}`, x.key)).body;
  return { x, url: `/api/mcp/content-opportunities/${list[0].id}` };
}

const used = async (x: ContentTenant, kind: string) =>
  Number(
    (
      await server.stores.pg.query(
        'SELECT used FROM quota_usage WHERE organization_id = $1 AND kind = $2 AND period = $3',
        [x.organizationId, kind, quotaPeriod()],
      )
    ).rows[0]?.used ?? 0,
  );

test.serial('the model writes the brief and the draft; the JSON-LD is built from the draft', async (t) => {
  const { x, url } = await opportunity();
  llm.play([ok(modelBrief)]);
  const brief = await call(server, 'POST', `${url}/brief`, { key: x.key });
  t.is(brief.status, 200);
  t.deepEqual(brief.body.brief, modelBrief);
  t.deepEqual((await get(server, url, x.key)).body.brief, modelBrief);
  t.is(llm.requests[llm.requests.length - 1].body.model, 'fake-model');

  llm.play([ok(modelDraft)]);
  const draft = await call(server, 'POST', `${url}/draft`, { key: x.key });
  t.is(draft.status, 200);
  t.true(Draft.safeParse(draft.body.content).success);
  t.is(draft.body.content.title, modelDraft.title);
  t.regex(JSON.parse(draft.body.content.structuredDataJsonLd)['@graph'][0].headline, /^Written by the model/);
  t.is(await used(x, 'briefs'), 1);
  t.is(await used(x, 'drafts'), 1);
});

test.serial('a failed generation (500, malformed JSON, timeout) is a 500 and gives its unit back', async (t) => {
  const { x, url } = await opportunity();
  llm.play([ok(modelBrief)]);
  t.is((await call(server, 'POST', `${url}/brief`, { key: x.key })).status, 200);
  const failures: [Parameters<FakeLlm['play']>[0], string][] = [
    [[{ kind: 'status', status: 500 }], 'Content generation failed: the model endpoint answered HTTP 500'],
    [[ok('{"broken": ')], "Content generation failed: the model's answer is not valid JSON"],
    [[{ kind: 'never' }], 'Content generation failed: the model did not answer within 2500 ms'],
  ];
  for (const [script, message] of failures) {
    for (const kind of ['brief', 'draft']) {
      llm.play(script);
      const r = await call(server, 'POST', `${url}/${kind}`, { key: x.key });
      t.deepEqual([r.status, r.body], [500, { error: message }], `${kind}: ${message}`);
    }
  }
  t.is(await used(x, 'briefs'), 1, 'only the successful brief counts');
  t.is(await used(x, 'drafts'), 0);
  t.deepEqual((await get(server, url, x.key)).body.brief, modelBrief, 'the saved brief is kept');
});
