// The configured model as sentiment judge (docs/api.md section 13), on the real stores with a fake
// OpenAI-compatible model on 127.0.0.1: a capture stores the model's verdicts and the endpoints show
// them; garbage, a wrong shape, an invalid verdict, a 500 or a timeout leave the built-in verdict;
// unnamed entities stay null; a re-analysis keeps the verdicts; without LLM_BASE_URL nothing calls.
import test from 'ava';
import pino from 'pino';
import type { Config } from '../../src/config.ts';
import { analyzeAnswer, compileEntities } from '../../src/tracking/analysis/analyze.ts';
import { sentimentFallbacks } from '../../src/runtime/metrics.ts';
import { brandById } from '../../src/tenancy/brands.ts';
import { startReanalysis } from '../../src/tenancy/reanalysis-queue.ts';
import { applyWorkspace, parseWorkspace } from '../../src/tenancy/workspace.ts';
import { runCapture } from '../../src/tracking/capture/capture.ts';
import type { Engines } from '../../src/tracking/capture/engines/registry.ts';
import { reanalyzeBrand } from '../../src/tracking/reanalysis/reanalyze.ts';
import {
  latestJudgings,
  textHash,
  verdictsFor,
  type StoredVerdict,
} from '../../src/tracking/ingest/sentiment-verdicts.ts';
import { fakeLlm, ok, type FakeLlm, type Reply } from '../helpers/fake-llm.ts';
import { get, ingestLines, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';

let server: TestServer;
let llm: FakeLlm;
test.before(async () => {
  llm = await fakeLlm([{ kind: 'status', status: 500 }]);
  server = await startTestServer({
    LLM_BASE_URL: llm.baseUrl,
    LLM_MODEL: 'judge-model',
    LLM_API_KEY: 'sk-judge',
    // Far beyond what a fake that answers at once needs; the timeout test sets its own.
    LLM_TIMEOUT_MS: '10000',
    REANALYSIS_WORKER: '0',
  });
});
test.after.always(async () => {
  await server?.stop();
  await llm?.close();
});

const DAY = '2026-11-03';
// Built-in: Acme positive 0.791, Globex negative -0.718; Zeta CRM positive 0.612 once it is tracked.
// Initech is a competitor the answer never names.
const TEXT = 'Acme Inc is excellent and reliable. Globex is slow and buggy. Zeta CRM is great.';
const BUILTIN = {
  Acme: { sentiment: 'positive', score: 0.791 },
  Globex: { sentiment: 'negative', score: -0.718 },
  Initech: null,
};

const INITECH = { name: 'Initech', domains: ['initech.example'], aliases: [] };
const GLOBEX = { name: 'Globex', domains: ['globex.example'], aliases: [] };
const ZETA = { name: 'Zeta CRM', domains: ['zeta.example'], aliases: [] };

const brand = (competitors: object[]) => ({
  name: 'Acme',
  slug: 'acme',
  region: 'US',
  domains: ['acme.example'],
  aliases: ['Acme Inc'],
  competitors,
  topics: [{ name: 'CRM', prompts: [{ text: 'best crm for startups', platforms: ['chatgpt'], regions: ['US'] }] }],
});

/** Every capture answers TEXT. */
const engines: Engines = {
  kind: 'simulated',
  forPlatform: () => ({
    name: 'fixed',
    version: 'fixed/1',
    configured: true,
    capture: async () => ({
      ok: true,
      capture: { text: TEXT, citations: [], model: 'gpt-test', mode: 'standard', products: [], searchQueries: null },
    }),
  }),
};

/** What the judge was asked: the entities listed and the answer, from the user message. */
function asked(body: any): { entities: { name: string; aliases: string[] }[]; answer: string } {
  const content: string = body.messages[1].content;
  return JSON.parse(content.slice(content.indexOf('Entities and answer: ') + 'Entities and answer: '.length));
}

/** A model giving these verdicts (by name) for whichever of them it is asked about, or not. */
const judging = (verdicts: Record<string, unknown>, { onlyAsked = true } = {}): Reply => ({
  kind: 'by',
  reply: (body) => {
    const names = asked(body).entities.map((e) => e.name);
    const entities = Object.entries(verdicts)
      .filter(([name]) => !onlyAsked || names.includes(name))
      .map(([name, v]) => ({ name, ...(v as object) }));
    return ok({ entities });
  },
});

async function capture(t: Tenant, llmConfig: Partial<Config['llm']> = {}, lines: string[] = []) {
  const config = { ...server.config, llm: { ...server.config.llm, ...llmConfig } };
  const log = pino({ level: 'warn' }, { write: (s: string) => lines.push(s) });
  return runCapture(
    { stores: server.stores, config, log, now: () => new Date(`${DAY}T06:00:00Z`) },
    { brandId: t.brandId, date: DAY, engines },
  );
}

/** Each tracked entity's stored sentiment in the brand's one answer: the answers endpoint and the stored score. */
async function stored(t: Tenant): Promise<Record<string, { sentiment: string; score: number } | null>> {
  const r = await get(server, `/api/v1/answers?brand_id=${t.brandId}`, t.key);
  if (r.status !== 200) throw new Error(JSON.stringify(r.body));
  const [answer] = r.body.answers;
  const generation = (await brandById(server.stores.pg, t.brandId))!.analysis_generation;
  const rows = await server.stores.ch.system<{ entity_id: string; score: number }>(
    `SELECT entity_id, sentiment_score AS score FROM answer_entities FINAL
     WHERE brand_id = {b:UUID} AND generation = {g:UInt32} AND sign = 1`,
    { b: t.brandId, g: generation },
  );
  const score = new Map(rows.map((row) => [row.entity_id, Number(row.score)]));
  const out: Record<string, { sentiment: string; score: number } | null> = {};
  for (const e of answer.entities) {
    out[e.name] = e.sentiment === null ? null : { sentiment: e.sentiment, score: score.get(e.entity_id)! };
  }
  return out;
}

async function fallbacks(): Promise<Record<string, number>> {
  const out: Record<string, number> = { failed: 0, skipped: 0, invalid: 0 };
  for (const v of (await sentimentFallbacks.get()).values) out[String(v.labels.reason)] = v.value;
  return out;
}

const since = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(Object.keys(after).map((k) => [k, after[k] - (before[k] ?? 0)]));

test.serial(
  'a capture stores the model’s verdicts, and the endpoints show them; unnamed entities stay null',
  async (t) => {
    const x = await seedTenant(server, [brand([GLOBEX, INITECH])]);
    // The model also judges Initech, which the answer never names: it stays null.
    llm.play([
      judging(
        {
          Acme: { sentiment: 'negative', score: -0.5 },
          Globex: { sentiment: 'positive', score: 0.45678 },
          Initech: { sentiment: 'positive', score: 0.9 },
        },
        { onlyAsked: false },
      ),
    ]);
    const from = llm.requests.length;
    t.like(await capture(x), { answers: 1, failed: [] });

    const requests = llm.requests.slice(from);
    t.is(requests.length, 1, 'one call per answer');
    const [req] = requests;
    t.is(req.path, '/v1/chat/completions');
    t.is(req.authorization, 'Bearer sk-judge');
    t.is(req.body.model, 'judge-model');
    t.is(req.body.response_format.json_schema.name, 'entity_sentiment');
    t.deepEqual(asked(req.body), {
      entities: [
        { name: 'Acme', aliases: ['Acme Inc'] },
        { name: 'Globex', aliases: [] },
      ],
      answer: TEXT,
    });

    t.deepEqual(await stored(x), {
      Acme: { sentiment: 'negative', score: -0.5 },
      Globex: { sentiment: 'positive', score: 0.457 },
      Initech: null,
    });
    const sentiment = await get(server, `/api/v1/sentiment?brand_id=${x.brandId}`, x.key);
    t.is(sentiment.status, 200);
    t.like(Object.fromEntries(sentiment.body.entities.map((e: any) => [e.name, e])), {
      Acme: { assessed: 1, positive: 0, neutral: 0, negative: 1, net_sentiment: -100 },
      Globex: { assessed: 1, positive: 1, neutral: 0, negative: 0, net_sentiment: 100 },
      Initech: { assessed: 0, net_sentiment: null },
    });
    const [verdicts] = await server.stores.ch.system<{ n: number; judged: number }>(
      'SELECT count() AS n, sum(judged) AS judged FROM sentiment_verdicts FINAL WHERE brand_id = {b:UUID}',
      { b: x.brandId },
    );
    t.deepEqual([Number(verdicts.n), Number(verdicts.judged)], [2, 2]);
  },
);

const failures: [string, Reply[], Partial<Config['llm']>][] = [
  ['garbage', [ok('this is not JSON at all')], {}],
  ['a wrong shape', [ok({ verdicts: [{ name: 'Acme', sentiment: 'negative', score: -0.5 }] })], {}],
  ['a 500', [{ kind: 'status', status: 500 }], {}],
  ['a timeout', [{ kind: 'never' }], { timeoutMs: 300 }],
];

for (const [what, script, llmConfig] of failures) {
  test.serial(
    `a model answering ${what} leaves the built-in verdicts, with one warning and no answer text`,
    async (t) => {
      const x = await seedTenant(server, [brand([GLOBEX, INITECH])]);
      llm.play(script);
      const from = llm.requests.length;
      const before = await fallbacks();
      const lines: string[] = [];
      t.like(await capture(x, llmConfig, lines), { answers: 1, failed: [] });
      t.is(llm.requests.length - from, 2, 'the call is tried twice');
      t.deepEqual(await stored(x), BUILTIN);
      t.deepEqual(since(before, await fallbacks()), { failed: 2, skipped: 0, invalid: 0 });
      const warnings = lines.map((l) => JSON.parse(l)).filter((l) => l.msg.includes('sentiment model'));
      t.is(warnings.length, 1);
      t.false(lines.join('\n').includes('excellent'), 'the answer text is never logged');
    },
  );
}

test.serial(
  'an out-of-range score, an unknown polarity or a contradicting one falls back for that entity alone',
  async (t) => {
    const cases = [
      { sentiment: 'negative', score: -1.5 },
      { sentiment: 'awful', score: -0.5 },
      { sentiment: 'negative', score: 0.5 },
    ];
    for (const invalid of cases) {
      const x = await seedTenant(server, [brand([GLOBEX, INITECH])]);
      llm.play([judging({ Acme: invalid, Globex: { sentiment: 'neutral', score: 0.1 } })]);
      const before = await fallbacks();
      await capture(x);
      t.deepEqual(
        await stored(x),
        { ...BUILTIN, Globex: { sentiment: 'neutral', score: 0.1 } },
        JSON.stringify(invalid),
      );
      t.deepEqual(since(before, await fallbacks()), { failed: 0, skipped: 0, invalid: 1 });
    }
  },
);

test.serial('an entity the model skips falls back alone', async (t) => {
  const x = await seedTenant(server, [brand([GLOBEX, INITECH])]);
  llm.play([judging({ Globex: { sentiment: 'positive', score: 0.3 } })]);
  const before = await fallbacks();
  const lines: string[] = [];
  await capture(x, {}, lines);
  t.deepEqual(await stored(x), { ...BUILTIN, Globex: { sentiment: 'positive', score: 0.3 } });
  t.deepEqual(since(before, await fallbacks()), { failed: 0, skipped: 1, invalid: 0 });
  t.deepEqual(lines, [], 'a call that answered is no warning');
});

test.serial(
  'a re-analysis (a competitor added) keeps the model’s verdicts and gives the new one the built-in verdict',
  async (t) => {
    const x = await seedTenant(server, [brand([GLOBEX, INITECH])]);
    llm.play([
      judging({
        Acme: { sentiment: 'negative', score: -0.5 },
        Globex: { sentiment: 'neutral', score: 0 },
        'Zeta CRM': { sentiment: 'negative', score: -0.9 },
      }),
    ]);
    await capture(x);
    const judged = { Acme: { sentiment: 'negative', score: -0.5 }, Globex: { sentiment: 'neutral', score: 0 } };
    t.deepEqual(await stored(x), { ...judged, Initech: null });

    const calls = llm.requests.length;
    const workspace = structuredClone(x.workspace);
    workspace.organizations[0].brands[0] = brand([GLOBEX, INITECH, ZETA]);
    await applyWorkspace(server.stores.pg, parseWorkspace(workspace));
    await startReanalysis(server.stores.pg, x.brandId, 'test');
    t.like(await reanalyzeBrand(server.stores, x.brandId), { answers: 1, generation: 1 });
    t.deepEqual(await stored(x), { ...judged, Initech: null, 'Zeta CRM': { sentiment: 'positive', score: 0.612 } });
    t.is(llm.requests.length, calls, 'a re-analysis never calls the model');
  },
);

test.serial('without LLM_BASE_URL nothing calls the network and every verdict is the built-in one', async (t) => {
  const x = await seedTenant(server, [brand([GLOBEX, INITECH])]);
  llm.play([judging({ Acme: { sentiment: 'negative', score: -0.5 } })]);
  const calls = llm.requests.length;
  t.like(await capture(x, { baseUrl: undefined }), { answers: 1 });
  // An ingested answer is never judged either, with the model configured or not.
  const [prompt] = x.promptIds;
  await ingestLines(server, [
    {
      prompt_id: prompt,
      platform: 'perplexity',
      model: 'sonar',
      region: 'US',
      collected_at: `${DAY}T07:00:00Z`,
      text: TEXT,
    },
  ]);
  t.is(llm.requests.length, calls);
  const r = await get(server, `/api/v1/answers?brand_id=${x.brandId}`, x.key);
  t.is(r.body.answers.length, 2);
  for (const answer of r.body.answers) {
    t.deepEqual(Object.fromEntries(answer.entities.map((e: any) => [e.name, e.sentiment])), {
      Acme: 'positive',
      Globex: 'negative',
      Initech: null,
    });
  }
  const [verdicts] = await server.stores.ch.system<{ n: number }>(
    'SELECT count() AS n FROM sentiment_verdicts WHERE brand_id = {b:UUID}',
    { b: x.brandId },
  );
  t.is(Number(verdicts.n), 0);
  // With none stored, a re-analysis reads none and derives the same verdicts.
  const before = await server.stores.ch.system<{ e: string; s: number; score: number }>(
    `SELECT entity_id AS e, sentiment AS s, sentiment_score AS score FROM answer_entities FINAL
     WHERE brand_id = {b:UUID} AND sign = 1 ORDER BY answer_id, entity_id`,
    { b: x.brandId },
  );
  await startReanalysis(server.stores.pg, x.brandId, 'test');
  t.like(await reanalyzeBrand(server.stores, x.brandId), { answers: 2, generation: 1 });
  const after = await server.stores.ch.system<{ e: string; s: number; score: number }>(
    `SELECT entity_id AS e, sentiment AS s, sentiment_score AS score FROM answer_entities FINAL
     WHERE brand_id = {b:UUID} AND generation = 1 AND sign = 1 ORDER BY answer_id, entity_id`,
    { b: x.brandId },
  );
  t.is(after.length, 4);
  t.deepEqual(after, before);
});

test('only an answer’s latest judging counts, and only for the text it judged', (t) => {
  const row = (over: Partial<StoredVerdict>): StoredVerdict => ({
    answer_id: 'a1',
    entity_id: 'acme',
    judged_at: '2026-11-03T06:00:00.000Z',
    text_hash: textHash('old text'),
    judged: 1,
    sentiment: -1,
    sentiment_score: -0.5,
    ...over,
  });
  const later = '2026-11-04T06:00:00.000Z';
  const judgings = latestJudgings([
    // a1 judged twice: the later judging fell back for Acme and did not see Globex named.
    row({}),
    row({ entity_id: 'globex', sentiment: 1, sentiment_score: 0.4 }),
    row({ judged_at: later, judged: 0, sentiment: 1, sentiment_score: 0.791 }),
    // a2: judged once, on another text than the one stored now.
    row({ answer_id: 'a2', text_hash: textHash('first text') }),
    // a3: a verdict and a fallback.
    row({ answer_id: 'a3', entity_id: 'globex', sentiment: 0, sentiment_score: 0.1 }),
    row({ answer_id: 'a3', judged: 0, sentiment: 1, sentiment_score: 0.7 }),
  ]);
  t.is(verdictsFor(judgings, 'a1', 'old text'), undefined, 'the later judging left every entity built-in');
  t.is(verdictsFor(judgings, 'a2', 'second text'), undefined);
  t.deepEqual(verdictsFor(judgings, 'a2', 'first text'), new Map([['acme', { sentiment: 'negative', score: -0.5 }]]));
  t.deepEqual(verdictsFor(judgings, 'a3', 'old text'), new Map([['globex', { sentiment: 'neutral', score: 0.1 }]]));
  t.is(verdictsFor(judgings, 'a4', 'old text'), undefined);
});

test('verdicts replace the built-in sentiment of named entities only', (t) => {
  const compiled = compileEntities([
    { id: 'acme', kind: 'brand', name: 'Acme', aliases: ['Acme Inc'], domains: [] },
    { id: 'globex', kind: 'competitor', name: 'Globex', aliases: [], domains: [] },
    { id: 'initech', kind: 'competitor', name: 'Initech', aliases: [], domains: [] },
  ]);
  const answer = { text: TEXT, citations: [] };
  const verdicts = new Map([
    ['acme', { sentiment: 'neutral' as const, score: 0.05 }],
    ['initech', { sentiment: 'positive' as const, score: 0.9 }],
  ]);
  const judged = analyzeAnswer(answer, compiled, verdicts);
  t.deepEqual(judged.sentiments, [
    { sentiment: 'neutral', score: 0.05 },
    { sentiment: 'negative', score: -0.718 },
    null,
  ]);
  const { sentiments, ...rest } = analyzeAnswer(answer, compiled);
  t.deepEqual(sentiments, [BUILTIN.Acme, BUILTIN.Globex, null]);
  t.deepEqual({ ...judged, sentiments }, { ...rest, sentiments }, 'only sentiment changes');
});
