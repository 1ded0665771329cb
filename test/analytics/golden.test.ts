// Golden figures: the answer set of golden-data.ts, ingested twice through the real ingest path,
// and every figure of every analytics endpoint written out from hand computation (the working is
// in the comments), including filtered variants and the weekly trend.
// test-process: shared
import fs from 'node:fs';
import path from 'node:path';
import test from 'ava';
import { get, seedTenant, startTestServer, type Tenant, type TestServer } from '../helpers/server.ts';
import { ingestFile } from '../../src/tracking/ingest/file.ts';
import { goldenAnswers, WORKSPACE_BRAND } from './golden-data.ts';
import { figuresOnly } from '../helpers/figures.ts';

let server: TestServer;
let t0: Tenant;
let q: (endpoint: string, query?: string) => Promise<any>;
let globexId: string;
let initechId: string;

test.before(async () => {
  server = await startTestServer();
  t0 = await seedTenant(server, [WORKSPACE_BRAND]);
  [globexId, initechId] = t0.competitorIds;
  const file = path.join(server.dataDir, 'golden.jsonl');
  fs.writeFileSync(
    file,
    goldenAnswers(t0.promptIds)
      .map((a) => JSON.stringify(a))
      .join('\n'),
  );
  // Twice: the second import replaces every answer and must change no figure.
  await ingestFile(server.stores, file);
  const again = await ingestFile(server.stores, file);
  if (again.replaced !== 26 || again.inserted !== 0) throw new Error(`unexpected re-import ${JSON.stringify(again)}`);
  q = async (endpoint, query = '') => {
    const r = await get(server, `/api/mcp/${endpoint}?brand_id=${t0.brandId}${query}`, t0.key);
    if (r.status !== 200) throw new Error(`${endpoint}${query}: ${r.status} ${JSON.stringify(r.body)}`);
    return figuresOnly(r.body);
  };
});
test.after.always(async () => {
  await server?.stop();
});

test('visibility-summary over all answers', async (t) => {
  // n = 24 (the 2 shopping answers never count). Named (texts A, B, E): 16 answers; mentions
  // 7xA(1) + 5xB(2) + 4xE(2) = 25. Cited (c1, c3): 12 answers, one Acme URL each: 12 citations.
  // Sum of 1/position: A 7x1 + B 5x0.5 + E 4x1 = 13.5; position factor 13.5/16 = 0.84375.
  // Mean score: (60x16 + 25x12 + 15x13.5)/24 = 1462.5/24 = 60.9375.
  // Score: 100 x (0.6x16/24 + 0.25x12/24 + 0.15x0.84375) = 65.15625.
  // Globex: named 21 (all but D), cited 5 (c2), 1/position A 7x0.5 + B 5x1 + C 5x0.5 + E 4x(1/3) = 12.333;
  //   mean (1260 + 125 + 185)/24 = 65.417; score 100 x (0.525 + 0.052083 + 0.15 x 0.587302) = 66.518.
  // Initech: named 9 (C, E), never cited, 1/position C 5x1 + E 4x0.5 = 7;
  //   mean (540 + 105)/24 = 26.875; score 100 x (0.225 + 0.15 x 7/9) = 34.167.
  t.deepEqual(await q('visibility-summary'), {
    brand: { id: t0.brandId, name: 'Acme' },
    totals: {
      resultCount: 24,
      avgVisibility: 60.9,
      totalMentions: 25,
      totalCitations: 12,
      aiVisibilityScore: 65.2,
      mentionAnswers: 16,
      citationAnswers: 12,
      positionFactor: 0.844,
    },
    topCompetitors: [
      { name: 'Globex', mentions: 21, avgVisibility: 65.4, score: 66.5 },
      { name: 'Initech', mentions: 9, avgVisibility: 26.9, score: 34.2 },
    ],
  });
});

test('visibility-summary filtered by model and region', async (t) => {
  // sonar (perplexity) in US: answers 2 (B c2), 6 (A c0), 11 (A c1), 15 (C c2), 18 (B c1), 22 (A c3).
  // Acme: named 5, mentions 2+1+1+2+1 = 7, cited 3 (11, 18, 22), 1/position 0.5+1+1+0.5+1 = 4 (pf 0.8);
  //   scores 67.5 + 75 + 100 + 0 + 92.5 + 100 = 435, mean 72.5; score 100 x (0.5 + 0.125 + 0.12) = 74.5.
  // Globex: named in all 6, cited in 2 and 15, 1/position 1+0.5+0.5+0.5+1+0.5 = 4:
  //   mean (360 + 50 + 60)/6 = 78.333; score 100 x (0.6 + 0.25x2/6 + 0.15x4/6) = 78.333.
  // Initech: named in 15 only, at 1: mean (60 + 15)/6 = 12.5; score 100 x (0.1 + 0.15) = 25.
  t.deepEqual(await q('visibility-summary', '&model=sonar&region=US'), {
    brand: { id: t0.brandId, name: 'Acme' },
    totals: {
      resultCount: 6,
      avgVisibility: 72.5,
      totalMentions: 7,
      totalCitations: 3,
      aiVisibilityScore: 74.5,
      mentionAnswers: 5,
      citationAnswers: 3,
      positionFactor: 0.8,
    },
    topCompetitors: [
      { name: 'Globex', mentions: 6, avgVisibility: 78.3, score: 78.3 },
      { name: 'Initech', mentions: 1, avgVisibility: 12.5, score: 25 },
    ],
  });
});

test('visibility-summary over one day, and from a timestamp', async (t) => {
  // Tuesday 3 Nov: answers 9-16. Named 5 (9, 11, 12, 14, 16), mentions 2+1+2+1+2 = 8, cited 4
  // (9, 10, 11, 14), 1/position 1+1+0.5+1+1 = 4.5 (pf 0.9); scores sum 467.5, mean 58.4375;
  // score 100 x (0.6x5/8 + 0.25x4/8 + 0.15x0.9) = 63.5.
  const day = await q('visibility-summary', '&date_from=2026-11-03&date_to=2026-11-03');
  t.deepEqual(day.totals, {
    resultCount: 8,
    avgVisibility: 58.4,
    totalMentions: 8,
    totalCitations: 4,
    aiVisibilityScore: 63.5,
    mentionAnswers: 5,
    citationAnswers: 4,
    positionFactor: 0.9,
  });
  // From 12:00 on Monday: Monday's answers 4-8 (collected 12:00 to 20:00) and all later ones.
  // Mentions: 0 + 2 + 1 + 2 + 1 = 6 on Monday, plus 8 and 8.
  const fromNoon = await q('visibility-summary', '&date_from=2026-11-02T12:00:00Z');
  t.is(fromNoon.totals.resultCount, 21);
  t.is(fromNoon.totals.totalMentions, 22);
  // Up to a timestamp: Monday up to 09:59 holds answers 1 and 2 (06:00, 08:00).
  const morning = await q('visibility-summary', '&date_to=2026-11-02T09:59:59Z');
  t.is(morning.totals.resultCount, 2);
});

test('visibility-summary of an empty range: counts 0, undefined figures null', async (t) => {
  t.deepEqual(await q('visibility-summary', '&date_from=2025-01-01&date_to=2025-01-31'), {
    brand: { id: t0.brandId, name: 'Acme' },
    totals: {
      resultCount: 0,
      avgVisibility: null,
      totalMentions: 0,
      totalCitations: 0,
      aiVisibilityScore: null,
      mentionAnswers: 0,
      citationAnswers: 0,
      positionFactor: null,
    },
    topCompetitors: [],
  });
});

test('visibility-trend by day, with the damped daily score', async (t) => {
  // Day 1 (answers 1-8): named 6, cited 3 (1, 4, 5), mentions 9, citations 3, 1/position 5 (pf 5/6);
  //   scores sum 510, mean 63.75 -> 64; damped pf 5/6 x 6/26 = 0.192308;
  //   score 100 x (0.45 + 0.09375 + 0.15 x 0.192308) = 57.26.
  //   Competitor pairs (named or cited): 9 with scores 67.5, 100, 75, 67.5, 67.5, 65, 67.5, 75, 92.5
  //   = 677.5, mean 75.28 -> 75.
  // Day 2 (9-16): named 5, cited 4, mentions 8, citations 4, 1/position 4.5; sum 467.5, mean 58.44 -> 58;
  //   damped pf 0.9 x 5/25 = 0.18; score 100 x (0.375 + 0.125 + 0.027) = 52.7.
  //   Pairs: 11, scores sum 810, mean 73.64 -> 74.
  // Day 3 (17-24): named 5, cited 5, mentions 8, citations 5, 1/position 4; sum 485, mean 60.625 -> 61;
  //   damped pf 0.8 x 5/25 = 0.16; score 100 x (0.375 + 0.15625 + 0.024) = 55.525 -> 55.5.
  //   Pairs: 10, scores sum 727.5, mean 72.75 -> 73.
  t.deepEqual(await q('visibility-trend'), {
    granularity: 'day',
    buckets: [
      {
        date: '2026-11-02',
        result_count: 8,
        avg_visibility_score: 64,
        ai_visibility_score: 57.3,
        total_mentions: 9,
        total_citations: 3,
        avg_competitor_score: 75,
      },
      {
        date: '2026-11-03',
        result_count: 8,
        avg_visibility_score: 58,
        ai_visibility_score: 52.7,
        total_mentions: 8,
        total_citations: 4,
        avg_competitor_score: 74,
      },
      {
        date: '2026-11-09',
        result_count: 8,
        avg_visibility_score: 61,
        ai_visibility_score: 55.5,
        total_mentions: 8,
        total_citations: 5,
        avg_competitor_score: 73,
      },
    ],
  });
});

test('visibility-trend by ISO week, dated by Monday, with no daily score', async (t) => {
  // Week of Mon 2 Nov: days 1 and 2: 16 answers, scores 977.5 -> 61.09 -> 61; mentions 17, citations 7;
  // competitor pairs 20 summing 1487.5 -> 74.375 -> 74. Week of Mon 9 Nov: day 3 as above.
  t.deepEqual(await q('visibility-trend', '&granularity=week'), {
    granularity: 'week',
    buckets: [
      {
        date: '2026-11-02',
        result_count: 16,
        avg_visibility_score: 61,
        ai_visibility_score: null,
        total_mentions: 17,
        total_citations: 7,
        avg_competitor_score: 74,
      },
      {
        date: '2026-11-09',
        result_count: 8,
        avg_visibility_score: 61,
        ai_visibility_score: null,
        total_mentions: 8,
        total_citations: 5,
        avg_competitor_score: 73,
      },
    ],
  });
});

test('visibility-trend for one topic', async (t) => {
  // Topic Email = P3: day 1 answers 5 (100), 6 (75); day 2: 12 (67.5), 13 (0), 16 (75); day 3: 19 (25), 22 (100).
  // Day 1: named 2, cited 1, mentions 3, 1/position 2 (pf 1, damped 1 x 2/22); score 100 x (0.6 + 0.125 + 0.15/11) = 73.86.
  //   Pairs: 5 Initech 67.5, Globex 65; 6 Globex 67.5 -> 200/3 = 66.7 -> 67.
  // Day 2: n 3, named 2 (12, 16), cited 0, mentions 4, 1/position 1.5 (pf 0.75 x 2/22);
  //   score 100 x (0.4 + 0 + 0.15 x 0.068182) = 41.02; mean 142.5/3 = 47.5 -> 48.
  //   Pairs: 12 Globex 100; 16 Initech 67.5, Globex 65 -> 232.5/3 = 77.5 -> 78.
  // Day 3: n 2, named 1 (22), cited 2 (19, 22), mentions 1, 1/position 1 (pf 1 x 1/21);
  //   score 100 x (0.3 + 0.25 + 0.15/21) = 55.71; mean 125/2 = 62.5 -> 63.
  //   Pairs: 19 Initech 75, Globex 67.5; 22 Globex 67.5 -> 210/3 = 70.
  const email = t0.topicIds[1];
  t.deepEqual((await q('visibility-trend', `&topic_id=${email}`)).buckets, [
    {
      date: '2026-11-02',
      result_count: 2,
      avg_visibility_score: 88,
      ai_visibility_score: 73.9,
      total_mentions: 3,
      total_citations: 1,
      avg_competitor_score: 67,
    },
    {
      date: '2026-11-03',
      result_count: 3,
      avg_visibility_score: 48,
      ai_visibility_score: 41,
      total_mentions: 4,
      total_citations: 0,
      avg_competitor_score: 78,
    },
    {
      date: '2026-11-09',
      result_count: 2,
      avg_visibility_score: 63,
      ai_visibility_score: 55.7,
      total_mentions: 1,
      total_citations: 2,
      avg_competitor_score: 70,
    },
  ]);
});

test('competitor-comparison with share of voice', async (t) => {
  // Figures as in the summary. Share of voice: 25 / (25 + 21 + 9) = 45.45%.
  // By platform: chatgpt answers (1,3,5,7,8,9,12,14,16,17,19,21,23): Acme 16, competitors 17 -> 48.5%;
  // perplexity: Acme 9, competitors 13 -> 40.9%.
  t.deepEqual(await q('competitor-comparison'), {
    brand: {
      id: t0.brandId,
      name: 'Acme',
      avg_visibility_score: 60.9,
      ai_visibility_score: 65.2,
      total_mentions: 25,
      total_citations: 12,
      appearance_count: 16,
    },
    // Mention rate per platform. chatgpt (13 answers): Acme in 10 (A, B, E), Globex in 12 (all but
    // D), Initech in 5 (C, E). perplexity (11): Acme 6, Globex 9, Initech 4.
    platforms: [
      {
        platform: 'chatgpt',
        answers: 13,
        mention_rates: { [t0.brandId]: 76.9, [globexId]: 92.3, [initechId]: 38.5 },
      },
      {
        platform: 'perplexity',
        answers: 11,
        mention_rates: { [t0.brandId]: 54.5, [globexId]: 81.8, [initechId]: 36.4 },
      },
    ],
    competitors: [
      {
        competitor_id: globexId,
        name: 'Globex',
        avg_visibility_score: 65.4,
        ai_visibility_score: 66.5,
        total_mentions: 21,
        total_citations: 5,
        appearance_count: 21,
      },
      {
        competitor_id: initechId,
        name: 'Initech',
        avg_visibility_score: 26.9,
        ai_visibility_score: 34.2,
        total_mentions: 9,
        total_citations: 0,
        appearance_count: 9,
      },
    ],
    share_of_voice: {
      overall_sov_pct: 45.5,
      total_brand_mentions: 25,
      total_competitor_mentions: 30,
      by_platform: [
        { model_used: 'gpt-4o', platform: 'chatgpt', brand_mentions: 16, competitor_mentions: 17, sov_pct: 48.5 },
        { model_used: 'sonar', platform: 'perplexity', brand_mentions: 9, competitor_mentions: 13, sov_pct: 40.9 },
      ],
    },
  });
});

test('competitor-comparison for one topic', async (t) => {
  // Email (P3): answers 5, 6, 12, 13, 16, 19, 22 (n 7). Acme: named 5, cited 3 (5, 19, 22), mentions 8,
  // 1/position 4.5 (pf 0.9); mean 442.5/7 = 63.21; score 100 x (0.428571 + 0.107143 + 0.135) = 67.07.
  // Globex: named 6 (not 13), cited 1 (12), 1/position 1/3 + 0.5 + 1 + 1/3 + 0.5 + 0.5 = 3.1667;
  //   mean 432.5/7 = 61.79; score 100 x (0.514286 + 0.035714 + 0.079167) = 62.92.
  // Initech: named 3 (5, 16, 19), 1/position 0.5 + 0.5 + 1 = 2; mean 210/7 = 30; score 100 x (0.257143 + 0.1) = 35.71.
  // Share of voice 8 / (8 + 6 + 3) = 47.06%; chatgpt (5, 12, 16, 19): Acme 6, others 7; perplexity (6, 13, 22): 2 and 2.
  const body = await q('competitor-comparison', `&topic_id=${t0.topicIds[1]}`);
  t.deepEqual(body.brand, {
    id: t0.brandId,
    name: 'Acme',
    avg_visibility_score: 63.2,
    ai_visibility_score: 67.1,
    total_mentions: 8,
    total_citations: 3,
    appearance_count: 5,
  });
  t.deepEqual(body.competitors, [
    {
      competitor_id: globexId,
      name: 'Globex',
      avg_visibility_score: 61.8,
      ai_visibility_score: 62.9,
      total_mentions: 6,
      total_citations: 1,
      appearance_count: 6,
    },
    {
      competitor_id: initechId,
      name: 'Initech',
      avg_visibility_score: 30,
      ai_visibility_score: 35.7,
      total_mentions: 3,
      total_citations: 0,
      appearance_count: 3,
    },
  ]);
  t.deepEqual(body.share_of_voice, {
    overall_sov_pct: 47.1,
    total_brand_mentions: 8,
    total_competitor_mentions: 9,
    by_platform: [
      { model_used: 'gpt-4o', platform: 'chatgpt', brand_mentions: 6, competitor_mentions: 7, sov_pct: 46.2 },
      { model_used: 'sonar', platform: 'perplexity', brand_mentions: 2, competitor_mentions: 2, sov_pct: 50 },
    ],
  });
});

const ACME_URL = 'https://acme.example/pricing';
const G2_URL = 'https://g2.com/products/acme/reviews';
const GLOBEX_URL = 'https://globex.example/';
const REDDIT_URL = 'https://reddit.com/r/crm/comments/abc';
const TC_URL = 'https://techcrunch.com/2026/11/01/crm-news';
const BOTH = ['gpt-4o', 'sonar'];

test('citations over all answers', async (t) => {
  // c1 in 7 answers (1, 5, 10, 11, 18, 21, 23), c2 in 5 (2, 8, 12, 15, 20), c3 in 5 (4, 9, 14, 19, 22):
  // 2 URLs each, so 34 citations over 17 answers; 5 URLs on 5 domains (the two Acme URLs are one).
  // Per answer 34/24 = 1.4167. Usage: 12/24 = 50%, 7/24 = 29.2%, 5/24 = 20.8%.
  t.deepEqual(await q('citations'), {
    totals: { domains: 5, urls: 5, citations: 34, results_with_citations: 17, avg_citations_per_result: 1.42 },
    source_type_breakdown: [
      { category: 'you', count: 1, pct: 20 },
      { category: 'competitor', count: 1, pct: 20 },
      { category: 'editorial', count: 1, pct: 20 },
      { category: 'forum', count: 1, pct: 20 },
      { category: 'review', count: 1, pct: 20 },
    ],
    top_domains: [
      {
        domain: 'acme.example',
        category: 'you',
        total_citations: 12,
        results_citing: 12,
        usage_pct: 50,
        models: BOTH,
        article_types: [{ type: 'other', count: 12 }],
      },
      {
        domain: 'g2.com',
        category: 'review',
        total_citations: 7,
        results_citing: 7,
        usage_pct: 29.2,
        models: BOTH,
        article_types: [{ type: 'review', count: 7 }],
      },
      {
        domain: 'globex.example',
        category: 'competitor',
        total_citations: 5,
        results_citing: 5,
        usage_pct: 20.8,
        models: BOTH,
        article_types: [{ type: 'homepage', count: 5 }],
      },
      {
        domain: 'reddit.com',
        category: 'forum',
        total_citations: 5,
        results_citing: 5,
        usage_pct: 20.8,
        models: BOTH,
        article_types: [{ type: 'discussion', count: 5 }],
      },
      {
        domain: 'techcrunch.com',
        category: 'editorial',
        total_citations: 5,
        results_citing: 5,
        usage_pct: 20.8,
        models: BOTH,
        article_types: [{ type: 'news', count: 5 }],
      },
    ],
    top_urls: [
      {
        url: ACME_URL,
        domain: 'acme.example',
        category: 'you',
        title: 'Acme pricing',
        total_citations: 12,
        results_citing: 12,
        usage_pct: 50,
        article_type: 'other',
      },
      {
        url: G2_URL,
        domain: 'g2.com',
        category: 'review',
        title: 'Acme reviews',
        total_citations: 7,
        results_citing: 7,
        usage_pct: 29.2,
        article_type: 'review',
      },
      {
        url: GLOBEX_URL,
        domain: 'globex.example',
        category: 'competitor',
        title: 'Globex',
        total_citations: 5,
        results_citing: 5,
        usage_pct: 20.8,
        article_type: 'homepage',
      },
      {
        url: REDDIT_URL,
        domain: 'reddit.com',
        category: 'forum',
        title: 'Best CRM? : r/crm',
        total_citations: 5,
        results_citing: 5,
        usage_pct: 20.8,
        article_type: 'discussion',
      },
      {
        url: TC_URL,
        domain: 'techcrunch.com',
        category: 'editorial',
        title: 'CRM news roundup',
        total_citations: 5,
        results_citing: 5,
        usage_pct: 20.8,
        article_type: 'news',
      },
    ],
  });
});

test('citations with source filters and a limit', async (t) => {
  // owned: the Acme URL alone, 12 citations in 12 answers: 12/24 = 0.5 per answer.
  const owned = await q('citations', '&source_filter=owned');
  t.deepEqual(owned.totals, {
    domains: 1,
    urls: 1,
    citations: 12,
    results_with_citations: 12,
    avg_citations_per_result: 0.5,
  });
  t.deepEqual(owned.source_type_breakdown, [{ category: 'you', count: 1, pct: 100 }]);
  // external: g2 (7), reddit (5), techcrunch (5): 17 citations in 17 answers, 17/24 = 0.71.
  const external = await q('citations', '&source_filter=external&limit=2');
  t.deepEqual(external.totals, {
    domains: 3,
    urls: 3,
    citations: 17,
    results_with_citations: 17,
    avg_citations_per_result: 0.71,
  });
  t.deepEqual(
    external.top_domains.map((d: any) => d.domain),
    ['g2.com', 'reddit.com'],
  );
  t.deepEqual(
    external.top_urls.map((u: any) => u.url),
    [G2_URL, REDDIT_URL],
  );
  t.deepEqual(
    external.source_type_breakdown.map((c: any) => [c.category, c.pct]),
    [
      ['editorial', 33.3],
      ['forum', 33.3],
      ['review', 33.3],
    ],
  );
  const competitor = await q('citations', '&source_filter=competitor');
  t.deepEqual(competitor.totals, {
    domains: 1,
    urls: 1,
    citations: 5,
    results_with_citations: 5,
    avg_citations_per_result: 0.21,
  });
  // Region GB: answers 4 (c3), 5 (c1), 7, 10 (c1), 13, 14 (c3), 19 (c3), 20 (c2), 23 (c1), 24: 10 answers,
  // 7 of them with 2 citations each (c3 x3, c1 x3, c2 x1): 14 citations, 1.4 per answer; Acme's URL in 6.
  const gb = await q('citations', '&region=GB');
  t.deepEqual(gb.totals, {
    domains: 5,
    urls: 5,
    citations: 14,
    results_with_citations: 7,
    avg_citations_per_result: 1.4,
  });
  t.deepEqual(gb.top_domains[0], {
    domain: 'acme.example',
    category: 'you',
    total_citations: 6,
    results_citing: 6,
    usage_pct: 60,
    models: BOTH,
    article_types: [{ type: 'other', count: 6 }],
  });
});

test('prompt-performance sorted and limited', async (t) => {
  // P1 (answers 1, 2, 7, 9, 10, 15, 17, 20, 23): scores sum 602.5 over 9 = 66.94; mentions 12; cited 4;
  //   13 competitor pairs summing 985 -> 75.77.
  // P2 (3, 4, 8, 11, 14, 18, 21, 24): 417.5/8 = 52.19; mentions 5; cited 5; 8 pairs summing 587.5 -> 73.44.
  // P3 (5, 6, 12, 13, 16, 19, 22): 442.5/7 = 63.21; mentions 8; cited 3; 9 pairs summing 642.5 -> 71.39.
  // On one basis (section 24), e.g. P2: Acme named in 8, 11, 14 (@1) and 18 (@2): 4/8 = 50%, cited in 5 of
  // 8, position factor 3.5/4: 100 x (0.6 x 0.5 + 0.25 x 0.625 + 0.15 x 0.875) = 58.75; Globex named in
  // all but 4 and 21 (D): 75%. Globex leads every prompt's competitors (P1: in all 9 answers).
  const body = await q('prompt-performance');
  t.deepEqual(body.brand, { id: t0.brandId, name: 'Acme' });
  t.deepEqual(body.window, { dateFrom: null, dateTo: null });
  t.deepEqual(body.prompts, [
    {
      prompt_id: t0.promptIds[0],
      prompt_text: 'P1 best crm',
      topic_name: 'CRM',
      result_count: 9,
      avg_visibility: 66.9,
      total_mentions: 12,
      total_citations: 4,
      avg_competitor_score: 75.8,
      ai_visibility_score: 69.6,
      mention_rate: 77.8,
      best_competitor: { competitor_id: globexId, name: 'Globex', ai_visibility_score: 77.8, mention_rate: 100 },
    },
    {
      prompt_id: t0.promptIds[2],
      prompt_text: 'P3 email tools',
      topic_name: 'Email',
      result_count: 7,
      avg_visibility: 63.2,
      total_mentions: 8,
      total_citations: 3,
      avg_competitor_score: 71.4,
      ai_visibility_score: 67.1,
      mention_rate: 71.4,
      best_competitor: { competitor_id: globexId, name: 'Globex', ai_visibility_score: 62.9, mention_rate: 85.7 },
    },
    {
      prompt_id: t0.promptIds[1],
      prompt_text: 'P2 crm pricing',
      topic_name: 'CRM',
      result_count: 8,
      avg_visibility: 52.2,
      total_mentions: 5,
      total_citations: 5,
      avg_competitor_score: 73.4,
      ai_visibility_score: 58.8,
      mention_rate: 50,
      best_competitor: { competitor_id: globexId, name: 'Globex', ai_visibility_score: 56.9, mention_rate: 75 },
    },
  ]);
  const byMentionsAsc = await q('prompt-performance', '&sort_by=mentions&order=asc');
  t.deepEqual(
    byMentionsAsc.prompts.map((p: any) => p.total_mentions),
    [5, 8, 12],
  );
  const byAppearances = await q('prompt-performance', '&sort_by=appearances&limit=2');
  t.deepEqual(
    byAppearances.prompts.map((p: any) => p.result_count),
    [9, 8],
  );
  const byCitations = await q('prompt-performance', '&sort_by=citations');
  t.deepEqual(
    byCitations.prompts.map((p: any) => p.total_citations),
    [5, 4, 3],
  );
  const crm = await q('prompt-performance', `&topic_id=${t0.topicIds[0]}&date_from=2026-11-09&date_to=2026-11-09`);
  t.deepEqual(crm.window, { dateFrom: '2026-11-09', dateTo: '2026-11-09' });
  // Day 3 in CRM: P1 17 (75), 20 (75), 23 (92.5) -> 80.8; P2 18 (92.5), 21 (25), 24 (0) -> 39.2.
  t.deepEqual(
    crm.prompts.map((p: any) => [p.prompt_text, p.result_count, p.avg_visibility]),
    [
      ['P1 best crm', 3, 80.8],
      ['P2 crm pricing', 3, 39.2],
    ],
  );
});

test('shopping cards and product visibility', async (t) => {
  const page = await q('shopping-cards');
  t.is(page.next_cursor, null);
  // Newest first: the 9 Nov card, then the two cards of the 2 Nov answer (same timestamp, in id order).
  t.deepEqual(
    page.cards.map((c: any) => c.created_at),
    ['2026-11-09T07:00:00.000Z', '2026-11-02T06:30:00.000Z', '2026-11-02T06:30:00.000Z'],
  );
  const row = (c: any) => [
    c.product_title,
    c.matched_brand_role,
    c.platform,
    c.price_amount,
    c.price_currency,
    c.merchant_domain,
  ];
  t.deepEqual(row(page.cards[0]), ['Acme CRM Pro', 'own', 'perplexity', 1199, 'EUR', 'acme.example']);
  t.deepEqual(page.cards.slice(1).map(row).sort(), [
    ['Acme CRM Pro', 'own', 'chatgpt', 1299.99, 'USD', 'shop.example'],
    ['Globex Suite', 'competitor', 'chatgpt', 49, 'EUR', 'globex.example'],
  ]);
  const globex = page.cards.find((c: any) => c.product_title === 'Globex Suite');
  t.is(globex.matched_brand_id, globexId);
  t.deepEqual(globex.raw, {
    position: 2,
    title: 'Globex Suite',
    brand: 'Globex',
    price: 49,
    currency: 'EUR',
    merchant_url: 'https://www.globex.example/buy',
  });
  t.deepEqual(
    (await q('shopping-cards', '&role=competitor')).cards.map((c: any) => c.product_title),
    ['Globex Suite'],
  );
  t.deepEqual((await q('shopping-cards', '&platform=perplexity&region=US')).cards.length, 1);

  t.deepEqual(await q('product-visibility', '&product_title=Acme%20CRM%20Pro'), {
    product_title: 'Acme CRM Pro',
    total_appearances: 2,
    by_platform: [
      { platform: 'chatgpt', count: 1 },
      { platform: 'perplexity', count: 1 },
    ],
    by_region: [{ region: 'US', count: 2 }],
    by_date: [
      { date: '2026-11-09', count: 1 },
      { date: '2026-11-02', count: 1 },
    ],
    latest_appearance: '2026-11-09T07:00:00.000Z',
    average_rating: 4.25,
    total_reviews: 150,
    merchant_domains: [
      { domain: 'acme.example', count: 1 },
      { domain: 'shop.example', count: 1 },
    ],
  });
});

test('every Metrics API response equals its REST twin', async (t) => {
  const queries = [
    ['visibility-summary', '&model=gpt-4o'],
    ['visibility-trend', '&granularity=week'],
    ['competitor-comparison', `&topic_id=${t0.topicIds[0]}`],
    ['citations', '&limit=3&source_filter=external'],
    ['prompt-performance', '&sort_by=mentions'],
    ['shopping-cards', '&limit=2'],
    ['ai-traffic', ''],
  ];
  for (const [endpoint, query] of queries) {
    const path = `${endpoint}?brand_id=${t0.brandId}${query}`;
    const [rest, metrics] = await Promise.all([
      get(server, `/api/mcp/${path}`, t0.key),
      get(server, `/api/v1/${path}`, t0.key),
    ]);
    t.is(rest.status, 200, endpoint);
    t.is(JSON.stringify(metrics.body), JSON.stringify(rest.body), endpoint);
  }
});
