// The simulated capture engine: realistic-looking AI answers for a brand's tracked prompts, for
// demos, load tests and benchmarks when no provider keys are configured (issue 3, issue 8's
// TRACKING_ENGINE=simulated). Output is a pure function of its inputs: the same seed, prompt,
// platform, region, day and sample always give byte-identical answers, so a demo data set can be
// regenerated exactly and a re-run of ingestion replaces instead of duplicating.
//
// The answers use real platform and model names on purpose (the analysis treats them like any
// capture); callers label the data set as simulated with SIMULATED_LABEL wherever it shows.
import type { AnswerInput, CitationInput } from '../../types.ts';
import type { Entity, Platform } from '../../../tenancy/tracked.ts';
import { buildCitations, buildShopping, buildText, int, topicOf, type Ctx, type Rng } from './text.ts';
import { type ProductKind, productKindOf } from './products.ts';
import { productCitations, productText, type Tone } from './product-text.ts';
import { DAY_MS, isoDay } from '../../../instant.ts';

/** The label callers attach to anything produced by this engine (engine name, UI, logs). */
export const SIMULATED_LABEL = 'simulated';

export interface SimPrompt {
  id: string;
  text: string;
  platforms: Platform[];
  regions: string[];
}
export interface SimBrand {
  brand: Entity;
  competitors: Entity[];
  prompts: SimPrompt[];
}

export interface SimulateAnswerOptions {
  seed: string | number;
  brand: SimBrand;
  prompt: SimPrompt;
  platform: Platform;
  region: string;
  day: string; // YYYY-MM-DD, UTC
  sample?: number; // 0-based index when a prompt is sampled several times a day
  shoppingShare?: number; // share of shopping answers on the platforms that have them (0.08)
  rise?: SimRise;
}

/**
 * A story the data tells (the demo's): from `from` on, one competitor is named on one platform
 * more often, by `odds` added to its chance per answer (docs/api.md section 24: the demo moves).
 */
export interface SimRise {
  competitorId: string;
  platform: Platform;
  from: string; // first day of the rise, YYYY-MM-DD
  odds: number;
}

export interface SimulateDaysOptions {
  seed: string | number;
  brands: SimBrand[];
  from: string; // first day, YYYY-MM-DD
  days: number;
  samples?: number; // answers per (prompt, platform, region, day); default 1
  shoppingShare?: number;
  rise?: SimRise;
}

// ---- seeded randomness ------------------------------------------------------------------------
// FNV-1a over the string, finished with murmur3's avalanche so that near-identical keys
// ("...|2026-01-01" and "...|2026-01-02") give unrelated streams.
function hash32(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return mix(h);
}
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
/** mulberry32: tiny, fast, good enough for simulation (not for anything secret). */
function mulberry32(a: number): Rng {
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const unit = (h: number) => h / 4294967296; // a 32-bit hash as a number in [0, 1)

// ---- how visible each entity is --------------------------------------------------------------
// Each platform has its own propensity to name the brand, so per-platform figures differ.
const PLATFORM_REACH: Record<Platform, number> = {
  chatgpt: 0.55,
  perplexity: 0.62,
  gemini: 0.45,
  google_ai_overviews: 0.34,
  google_ai_mode: 0.5,
  claude: 0.4,
  copilot: 0.3,
  grok: 0.26,
};
// Cited sources per answer [min, max]; retrieval-heavy platforms cite more.
const CITES: Record<Platform, [number, number]> = {
  chatgpt: [1, 6],
  perplexity: [3, 8],
  gemini: [1, 5],
  google_ai_overviews: [2, 8],
  google_ai_mode: [2, 7],
  claude: [0, 4],
  copilot: [1, 5],
  grok: [0, 5],
};
const SHOPPING_PLATFORMS = new Set<Platform>(['chatgpt', 'perplexity', 'google_ai_mode']);

/**
 * An entity's visibility on one platform: a base level, a slow wave shared by all platforms (so
 * the brand's overall trend moves, not just per-platform noise that averages out) and two waves
 * of the platform's own.
 */
interface Reach {
  id: string;
  kind: string;
  key: number;
  base: number;
  a0: number;
  w0: number;
  f0: number;
  a1: number;
  w1: number;
  f1: number;
  a2: number;
  w2: number;
  f2: number;
}
// Cached per entity object and "seed|platform"; id and kind are re-checked so that a reused,
// edited entity object never gets a stale profile.
const reachCache = new WeakMap<Entity, Map<string, Reach>>();

function reachOf(seed: string, seedPlatform: string, e: Entity, platform: Platform): Reach {
  let byKey = reachCache.get(e);
  if (!byKey) {
    byKey = new Map();
    reachCache.set(e, byKey);
  }
  let p = byKey.get(seedPlatform);
  if (!p || p.id !== e.id || p.kind !== e.kind) {
    const r = mulberry32(hash32(`${seed}|${e.kind}|${e.id}|${platform}`));
    const key = hash32(`${seed}|${e.id}`),
      shared = mulberry32(key); // the same for every platform
    const lvl = PLATFORM_REACH[platform];
    p = {
      id: e.id,
      kind: e.kind,
      key,
      a0: 0.06 + shared() * 0.08,
      w0: (2 * Math.PI) / (50 + shared() * 100),
      f0: shared() * 2 * Math.PI, // a season
      base: e.kind === 'brand' ? lvl + (r() - 0.5) * 0.24 : lvl * (0.45 + r() * 0.65),
      a1: 0.06 + r() * 0.1,
      w1: (2 * Math.PI) / (40 + r() * 80),
      f1: r() * 2 * Math.PI, // weeks to months
      a2: 0.02 + r() * 0.04,
      w2: (2 * Math.PI) / (7 + r() * 14),
      f2: r() * 2 * Math.PI, // a week or two
    };
    if (byKey.size > 1000) byKey.clear(); // bound memory when one entity meets many seeds
    byKey.set(seedPlatform, p);
  }
  return p;
}

/** Probability that `e` is named in an answer to this prompt on this day and region. */
function nameOdds(p: Reach, dayIdx: number, promptKey: number, regionKey: number): number {
  const v =
    p.base +
    p.a0 * Math.sin(p.w0 * dayIdx + p.f0) +
    p.a1 * Math.sin(p.w1 * dayIdx + p.f1) +
    p.a2 * Math.sin(p.w2 * dayIdx + p.f2) +
    (unit(mix(promptKey ^ p.key)) - 0.5) * 0.4 + // some prompts suit an entity better than others
    (unit(mix(regionKey ^ p.key)) - 0.5) * 0.12; // and some markets
  return Math.min(0.95, Math.max(0.02, v));
}

/**
 * How an entity is spoken of when named, in [-1, 1]: a leaning of its own plus a slow wave, so
 * each entity's sentiment differs and drifts over the days. Read only for known product kinds.
 */
function leanOf(p: Reach, dayIdx: number): number {
  return (unit(mix(p.key ^ 0x27d4eb2d)) - 0.5) * 0.9 + 0.35 * Math.sin(p.w1 * dayIdx + p.f2);
}
function toneOf(r: Rng, lean: number): Tone {
  const k = r();
  return k < 0.5 + lean * 0.35 ? 1 : k < 0.8 + lean * 0.1 ? 0 : -1;
}

const topicCache = new Map<string, { topic: string; topicTitle: string; kind: ProductKind | null; lower: string }>();
function topicFor(text: string) {
  let t = topicCache.get(text);
  if (!t) {
    if (topicCache.size > 10_000) topicCache.clear();
    t = { ...topicOf(text), kind: productKindOf(text), lower: text.toLowerCase() };
    topicCache.set(text, t);
  }
  return t;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
let lastDay = '',
  lastIdx = 0; // answers come day by day: skip re-parsing the same date
function dayIndex(day: string): number {
  if (day === lastDay) return lastIdx;
  const ms = DAY.test(day) ? Date.parse(`${day}T00:00:00Z`) : NaN;
  if (Number.isNaN(ms)) throw new Error(`simulated engine: bad day "${day}" (expected YYYY-MM-DD)`);
  lastDay = day;
  lastIdx = ms / DAY_MS;
  return lastIdx;
}

function modelFor(r: Rng, platform: Platform): string {
  switch (platform) {
    case 'chatgpt':
      return r() < 0.5 ? 'gpt-4o' : 'gpt-5';
    case 'perplexity':
      return r() < 0.6 ? 'sonar' : 'sonar-pro';
    case 'gemini':
      return 'gemini-2.5-flash';
    case 'google_ai_overviews':
      return 'google-aio';
    case 'google_ai_mode':
      return 'google-ai-mode';
    case 'claude':
      return 'claude-sonnet-4';
    case 'copilot':
      return 'copilot';
    case 'grok':
      return 'grok-3';
  }
}

const pad2 = (n: number) => (n < 10 ? '0' : '') + n;

/** One simulated answer. Deterministic in (seed, prompt, platform, region, day, sample). */
export function simulateAnswer(opts: SimulateAnswerOptions): AnswerInput {
  const { brand, prompt, platform, region, day } = opts;
  const seed = String(opts.seed),
    sample = opts.sample ?? 0,
    shoppingShare = opts.shoppingShare ?? 0.08;
  if (!Number.isInteger(sample) || sample < 0) throw new Error(`simulated engine: bad sample ${sample}`);
  if (!(platform in PLATFORM_REACH)) throw new Error(`simulated engine: unknown platform "${platform}"`);
  const dayIdx = dayIndex(day);

  // One string hash per answer; the sample only perturbs it, so samples of the same
  // (prompt, platform, region, day) share a base time and differ in everything else.
  const slot = hash32(`${seed}|${prompt.id}|${platform}|${region}|${day}`);
  const r = mulberry32(mix(slot ^ Math.imul(sample + 1, 0x9e3779b9)));

  // The ingestion id derives from collected_at among others, so samples must never share a
  // timestamp: 7919 is prime to 86400, giving distinct seconds for up to 86,400 samples.
  const secs = ((slot % 86_400) + sample * 7919) % 86_400;
  const collected_at = `${day}T${pad2((secs / 3600) | 0)}:${pad2(((secs / 60) | 0) % 60)}:${pad2(secs % 60)}Z`;
  const model = modelFor(r, platform);

  const { topic, topicTitle, kind, lower } = topicFor(prompt.text);
  const entities = [brand.brand, ...brand.competitors];
  const ctx: Ctx = {
    r,
    platform,
    region,
    year: Number(day.slice(0, 4)),
    prompt: prompt.text,
    topic,
    topicTitle,
    entities,
  };
  const promptKey = hash32(`${seed}|${prompt.id}`),
    regionKey = hash32(region),
    seedPlatform = `${seed}|${platform}`;
  const reaches = entities.map((e) => reachOf(seed, seedPlatform, e, platform));
  // An entity the prompt itself names ("trailpeak vs summit supply") is nearly always in the answer.
  const rise = opts.rise;
  const risen = (e: Entity) =>
    rise && e.id === rise.competitorId && platform === rise.platform && day >= rise.from ? rise.odds : 0;
  const odds = entities.map((e, i) =>
    lower.includes(e.name.toLowerCase())
      ? 0.97
      : Math.min(0.95, nameOdds(reaches[i], dayIdx, promptKey, regionKey) + risen(e)),
  );

  if (SHOPPING_PLATFORMS.has(platform) && r() < shoppingShare) {
    // Per product card, the chance that it is this entity's product: follows its visibility.
    const makerOdds = odds.map((p, i) => p * (i === 0 ? 0.45 : 0.25));
    const { text, products } = buildShopping(ctx, makerOdds, kind);
    // Shopping answers cite a few retailer pages of their own cards, sometimes a buying guide.
    const citations: CitationInput[] = products
      .filter(() => r() < 0.35)
      .map((p) => ({ url: p.merchant_url as string, title: p.title }))
      .filter((c, i, all) => all.findIndex((x) => x.url === c.url) === i); // two cards, one page: cite it once
    if (r() < 0.3) citations.push(...buildCitations(ctx, 1, []));
    return { prompt_id: prompt.id, platform, model, region, mode: 'shopping', collected_at, text, citations, products };
  }

  // Who is named, and in which order: stronger entities tend to come first, but not always.
  const named: { i: number; key: number }[] = [];
  for (let i = 0; i < entities.length; i++) if (r() < odds[i]) named.push({ i, key: r() + odds[i] * 0.6 });
  named.sort((a, b) => b.key - a.key);
  if (named.length > 6) named.length = 6; // long lists read badly; six is plenty
  const order = named.map((x) => entities[x.i]);

  const [lo, hi] = CITES[platform];
  const nCites = r() < 0.07 ? 0 : int(r, lo, hi);
  // Named entities are likelier to have their own pages cited; unnamed ones occasionally are.
  const ownCite = entities.map((_, i): number => (i === 0 ? 0.1 : 0.04));
  for (const x of named) ownCite[x.i] = x.i === 0 ? 0.5 : 0.3;
  let citations: CitationInput[], text: string;
  if (kind) {
    citations = nCites ? productCitations(ctx, kind, nCites, ownCite) : [];
    const tones = named.map((x) => toneOf(r, leanOf(reaches[x.i], dayIdx)));
    text = productText(ctx, kind, order, tones, citations.length);
  } else {
    citations = nCites ? buildCitations(ctx, nCites, ownCite) : [];
    text = buildText(ctx, order, citations.length);
  }
  return {
    prompt_id: prompt.id,
    platform,
    model,
    region,
    mode: 'standard',
    collected_at,
    text,
    citations,
    products: [],
  };
}

/**
 * Every answer of `days` days from `from`: day by day, then brand, prompt, platform, region and
 * sample. A generator, so a million answers stream through without being held in memory.
 */
export function* simulateDays(opts: SimulateDaysOptions): Generator<AnswerInput> {
  const start = dayIndex(opts.from),
    samples = opts.samples ?? 1;
  if (!Number.isInteger(opts.days) || opts.days < 0) throw new Error(`simulated engine: bad days ${opts.days}`);
  if (!Number.isInteger(samples) || samples < 1) throw new Error(`simulated engine: bad samples ${samples}`);
  for (let d = 0; d < opts.days; d++) {
    const day = isoDay((start + d) * DAY_MS);
    for (const brand of opts.brands) {
      for (const prompt of brand.prompts) {
        for (const platform of prompt.platforms) {
          for (const region of prompt.regions) {
            for (let sample = 0; sample < samples; sample++) {
              yield simulateAnswer({
                seed: opts.seed,
                brand,
                prompt,
                platform,
                region,
                day,
                sample,
                shoppingShare: opts.shoppingShare,
                rise: opts.rise,
              });
            }
          }
        }
      }
    }
  }
}
