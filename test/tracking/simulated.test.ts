// test-process: shared
import test from 'ava';
import {
  SIMULATED_LABEL,
  simulateAnswer,
  simulateDays,
  type SimBrand,
} from '../../src/tracking/capture/engines/simulated.ts';
import type { AnswerInput } from '../../src/tracking/types.ts';
import { PLATFORMS, type Entity, type Platform } from '../../src/tenancy/tracked.ts';

const ent = (kind: Entity['kind'], id: string, name: string, aliases: string[], domains: string[]): Entity => ({
  id,
  kind,
  name,
  aliases,
  domains,
});

const acme: SimBrand = {
  brand: ent('brand', 'b-acme', 'Acme', ['Acme Inc'], ['acme.com']),
  competitors: [
    ent('competitor', 'c-globex', 'Globex', ['Globex Corp'], ['globex.com']),
    ent('competitor', 'c-initech', 'Initech', [], ['initech.io']),
    ent('competitor', 'c-umbrella', 'Umbrella', ['Umbrella CRM'], ['umbrella.co']),
  ],
  prompts: [
    { id: 'p-1', text: 'best crm for startups', platforms: [...PLATFORMS], regions: ['US', 'DE'] },
    {
      id: 'p-2',
      text: 'which crm integrates with gmail?',
      platforms: ['chatgpt', 'perplexity', 'google_ai_mode'],
      regions: ['US'],
    },
  ],
};
const cafe: SimBrand = {
  brand: ent('brand', 'b-cafe', 'Café Noir', [], ['cafenoir.fr']),
  competitors: [ent('competitor', 'c-skoda', 'Škoda Roasters', ['Škoda'], ['skoda-roasters.cz'])],
  prompts: [
    {
      id: 'p-3',
      text: 'best coffee beans for espresso',
      platforms: ['chatgpt', 'google_ai_mode', 'claude'],
      regions: ['FR', 'GB'],
    },
  ],
};

const MODELS: Record<Platform, string[]> = {
  chatgpt: ['gpt-4o', 'gpt-5'],
  perplexity: ['sonar', 'sonar-pro'],
  gemini: ['gemini-2.5-flash'],
  google_ai_overviews: ['google-aio'],
  google_ai_mode: ['google-ai-mode'],
  claude: ['claude-sonnet-4'],
  copilot: ['copilot'],
  grok: ['grok-3'],
};

// --- a minimal reading of docs/api.md section 2, enough to check that the texts exercise it ----
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const strip = (text: string) => text.replace(/\]\([^)]*\)/g, ']').replace(/https?:\/\/\S+/g, ' ');
/** Offsets of an entity's mentions (name, aliases, domains) in the answer text. */
function mentions(text: string, e: Entity): number[] {
  const forms = [e.name, ...e.aliases, ...e.domains].sort((a, b) => b.length - a.length).map(esc);
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${forms.join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  return [...strip(text).matchAll(re)].map((m) => m.index!);
}
/** 1-based positions of the named entities, by first mention. */
function positions(text: string, entities: Entity[]): Map<string, number> {
  const firsts = entities.map((e) => [e.id, mentions(text, e)[0]] as const).filter(([, o]) => o !== undefined);
  firsts.sort((a, b) => a[1]! - b[1]!);
  return new Map(firsts.map(([id], i) => [id, i + 1]));
}
const host = (url: string) => new URL(url).hostname.toLowerCase().replace(/^www\./, '');
const CATEGORY: [string, RegExp][] = [
  [
    'editorial',
    /^(techcrunch\.com|forbes\.com|nytimes\.com|theverge\.com|wired\.com|zdnet\.com|techradar\.com|pcmag\.com|businessinsider\.com|theguardian\.com)$/,
  ],
  ['forum', /^(reddit\.com|quora\.com|stackoverflow\.com|news\.ycombinator\.com)$/],
  ['social', /^(youtube\.com|linkedin\.com|x\.com)$/],
  ['review', /^(g2\.com|capterra\.com|trustpilot\.com)$/],
  ['institutional', /(\.gov|\.edu|\.int|\.ac\.[a-z]{2}|^gov\.[a-z]{2})$/],
];
function category(h: string, b: SimBrand): string {
  const belongs = (e: Entity) => e.domains.some((d) => h === d || h.endsWith(`.${d}`));
  if (belongs(b.brand)) return 'you';
  if (b.competitors.some(belongs)) return 'competitor';
  return CATEGORY.find(([, re]) => re.test(h))?.[0] ?? 'other';
}

const take = (gen: Iterable<AnswerInput>) => [...gen];
const DAYS = 30;
const all = take(simulateDays({ seed: 42, brands: [acme, cafe], from: '2026-01-01', days: DAYS, samples: 2 }));
const standard = all.filter((a) => a.mode === 'standard');
const ofBrand = (b: SimBrand) => (a: AnswerInput) => b.prompts.some((p) => p.id === a.prompt_id);

test('exports the label callers attach, and keeps it out of answer texts', (t) => {
  t.is(SIMULATED_LABEL, 'simulated');
  t.false(all.some((a) => /simulat/i.test(a.text)));
});

test('same seed gives byte-identical answers; another seed gives others', (t) => {
  const again = take(simulateDays({ seed: 42, brands: [acme, cafe], from: '2026-01-01', days: DAYS, samples: 2 }));
  t.is(JSON.stringify(again), JSON.stringify(all));
  const other = take(simulateDays({ seed: 43, brands: [acme, cafe], from: '2026-01-01', days: DAYS, samples: 2 }));
  t.is(other.length, all.length);
  const same = other.filter((a, i) => a.text === all[i].text).length;
  t.true(same < all.length * 0.05, `${same} identical texts`);
  t.is(String(42), '42'); // numeric and string seeds are the same seed
  t.is(
    JSON.stringify(take(simulateDays({ seed: '42', brands: [acme], from: '2026-01-01', days: 2 }))),
    JSON.stringify(take(simulateDays({ seed: 42, brands: [acme], from: '2026-01-01', days: 2 }))),
  );
});

test('simulateAnswer alone reproduces what the generator yields', (t) => {
  const prompt = acme.prompts[0];
  const one = simulateAnswer({
    seed: 42,
    brand: acme,
    prompt,
    platform: 'perplexity',
    region: 'DE',
    day: '2026-01-17',
    sample: 1,
  });
  const fromGen = all.find(
    (a) =>
      a.prompt_id === prompt.id &&
      a.platform === 'perplexity' &&
      a.region === 'DE' &&
      a.collected_at.startsWith('2026-01-17') &&
      a.text === one.text,
  );
  t.deepEqual(fromGen, one);
  t.false('id' in one); // ingestion derives the id
  t.throws(() =>
    simulateAnswer({ seed: 1, brand: acme, prompt, platform: 'chatgpt', region: 'US', day: '2026-13-01' }),
  );
  t.throws(() =>
    simulateAnswer({ seed: 1, brand: acme, prompt, platform: 'chatgpt', region: 'US', day: '2026-01-01', sample: -1 }),
  );
});

test('covers every brand, prompt, platform, region, day and sample exactly once', (t) => {
  const expected =
    DAYS * 2 * [acme, cafe].flatMap((b) => b.prompts).reduce((n, p) => n + p.platforms.length * p.regions.length, 0);
  t.is(all.length, expected);
  const keys = new Set(all.map((a) => `${a.prompt_id}|${a.platform}|${a.region}|${a.model}|${a.collected_at}`));
  t.is(keys.size, all.length, 'samples never collide on the fields the ingestion id derives from');
  for (const b of [acme, cafe])
    for (const p of b.prompts)
      for (const pl of p.platforms)
        for (const r of p.regions) {
          for (let d = 0; d < DAYS; d++) {
            const day = `2026-01-${String(d + 1).padStart(2, '0')}`;
            const n = all.filter(
              (a) => a.prompt_id === p.id && a.platform === pl && a.region === r && a.collected_at.startsWith(day),
            ).length;
            if (n !== 2) t.fail(`${p.id} ${pl} ${r} ${day}: ${n} answers`);
          }
        }
  for (const a of all) {
    t.regex(a.collected_at, /^2026-01-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    t.false(Number.isNaN(Date.parse(a.collected_at)));
    t.true(MODELS[a.platform].includes(a.model), `${a.platform} ${a.model}`);
  }
  t.deepEqual([...new Set(all.map((a) => a.platform))].sort(), [...PLATFORMS].sort());
  t.deepEqual([...new Set(all.filter((a) => a.platform === 'chatgpt').map((a) => a.model))].sort(), [
    'gpt-4o',
    'gpt-5',
  ]);
});

test('texts read like answers of a few hundred characters', (t) => {
  for (const a of all) t.true(a.text.length >= 300 && a.text.length <= 1500, `${a.text.length} chars`);
  t.true(
    standard.some((a) => /^1\. \*\*/m.test(a.text)) && standard.some((a) => /^- \*\*/m.test(a.text)),
    'lists and bullets',
  );
  t.true(
    standard.some((a) => !/^(\d+\.|-) /m.test(a.text)),
    'prose',
  );
});

test('shopping answers come with product cards, on the shopping platforms only', (t) => {
  const shopping = all.filter((a) => a.mode === 'shopping');
  const eligible = all.filter((a) => ['chatgpt', 'perplexity', 'google_ai_mode'].includes(a.platform));
  const share = shopping.length / eligible.length;
  t.true(share > 0.04 && share < 0.13, `share ${share}`);
  t.true(shopping.every((a) => ['chatgpt', 'perplexity', 'google_ai_mode'].includes(a.platform)));
  t.true(standard.every((a) => a.products.length === 0));
  const products = shopping.flatMap((a) => a.products);
  for (const a of shopping) {
    t.true(a.products.length >= 3 && a.products.length <= 6);
    t.deepEqual(
      a.products.map((p) => p.position),
      a.products.map((_, i) => i + 1),
    );
  }
  for (const p of products) {
    t.truthy(p.title);
    t.true(typeof p.price === 'number' || /^[$€£₺¥][\d.,]+$/.test(String(p.price)), String(p.price));
    const rating = Number(p.rating);
    t.true(rating >= 3.5 && rating <= 5);
    t.true(Number(String(p.review_count).replace(/,/g, '')) > 0);
    t.notThrows(() => new URL(p.merchant_url!));
  }
  t.true(products.some((p) => typeof p.price === 'string') && products.some((p) => typeof p.price === 'number'));
  t.true(
    products.some((p) => String(p.price).startsWith('€') && String(p.price).includes(',')),
    'European price format',
  );
  const makers = new Set(products.map((p) => p.brand ?? ''));
  t.true(
    makers.has('Acme') &&
      makers.has('Café Noir') &&
      [...makers].some((m) => ['Globex', 'Initech', 'Umbrella'].includes(m)),
  );
  t.true(makers.has(''), 'some cards name the maker only in the title');
  t.true(
    products.some((p) => host(p.merchant_url!) === 'acme.com'),
    'the brand sells on its own site',
  );
  t.true(
    products.some((p) => host(p.merchant_url!) === 'amazon.com') &&
      products.some((p) => host(p.merchant_url!) === 'amazon.co.uk'),
  );
});

test('citations span every category, with varied pages and tracking parameters', (t) => {
  const counts = all.map((a) => a.citations.length);
  t.true(Math.min(...counts) === 0 && Math.max(...counts) <= 8 && counts.some((n) => n >= 7));
  const seen = new Map<string, number>();
  for (const b of [acme, cafe])
    for (const a of all.filter(ofBrand(b)))
      for (const c of a.citations) {
        const cat = category(host(c.url), b);
        seen.set(cat, (seen.get(cat) ?? 0) + 1);
        t.truthy(c.title);
      }
  t.deepEqual([...seen.keys()].sort(), [
    'competitor',
    'editorial',
    'forum',
    'institutional',
    'other',
    'review',
    'social',
    'you',
  ]);
  const urls = all.flatMap((a) => a.citations.map((c) => c.url));
  t.true(urls.some((u) => u.includes('utm_source=chatgpt.com')));
  t.true(urls.some((u) => /youtube\.com\/watch\?v=[\w-]{11}$/.test(u)));
  t.true(urls.some((u) => /reddit\.com\/r\/\w+\/comments\//.test(u)));
  t.true(
    urls.some((u) => /^https:\/\/(docs|blog)\.acme\.com\//.test(u)),
    'sub-domains of the brand',
  );
  t.true(urls.some((u) => /acme\.com\/pricing/.test(u)));
  const titles = all.flatMap((a) => a.citations.map((c) => c.title ?? ''));
  t.true(
    titles.some((x) => /^The \d+ Best /.test(x)) &&
      titles.some((x) => / vs /.test(x)) &&
      titles.some((x) => /^How to /.test(x)),
  );
  for (const a of all) {
    // never the same URL twice in one answer (the same page with utm_ may repeat)
    t.is(new Set(a.citations.map((c) => c.url)).size, a.citations.length);
  }
});

test('the brand is named in some answers but not all, in every way the analysis reads', (t) => {
  const acmeAnswers = standard.filter(ofBrand(acme));
  const named = acmeAnswers.filter((a) => mentions(a.text, acme.brand).length > 0);
  const rate = named.length / acmeAnswers.length;
  t.true(rate > 0.2 && rate < 0.8, `named in ${rate}`);
  t.true(
    named.some((a) => mentions(a.text, acme.brand).length >= 2),
    'sometimes twice',
  );
  t.true(
    named.some((a) => /\bAcme Inc\b/.test(a.text)),
    'by alias',
  );
  t.true(
    named.some((a) => /(?<![\w/.])acme\.com(?![\w/])/.test(a.text)),
    'by domain',
  );
  t.true(
    named.some((a) => /\[Acme\]\(https:\/\/acme\.com[^)]*\)/.test(a.text)),
    'as a markdown link',
  );
  t.true(
    acmeAnswers.some((a) => /(^|\s)https:\/\/acme\.com\/pricing/.test(a.text)),
    'a bare URL, which is not a mention',
  );
  t.true(
    standard.some((a) => [acme.brand, ...acme.competitors].every((e) => mentions(a.text, e).length === 0)),
    'answers naming nobody',
  );
  // Non-ASCII names are written and matched like any other.
  t.true(standard.filter(ofBrand(cafe)).some((a) => mentions(a.text, cafe.brand).length > 0));
  t.true(standard.filter(ofBrand(cafe)).some((a) => mentions(a.text, cafe.competitors[0]).length > 0));
});

test('competitors are named at varying positions', (t) => {
  const entities = [acme.brand, ...acme.competitors];
  for (const e of entities) {
    const ps = new Set(
      standard
        .filter(ofBrand(acme))
        .map((a) => positions(a.text, entities).get(e.id))
        .filter((p) => p !== undefined),
    );
    t.true(ps.has(1) && ps.size >= 3, `${e.name}: positions ${[...ps]}`);
  }
});

test('visibility differs by platform and drifts over the days', (t) => {
  const answers = take(
    simulateDays({ seed: 'trend', brands: [acme], from: '2026-01-01', days: 90, samples: 3 }),
  ).filter((a) => a.mode === 'standard');
  const rate = (xs: AnswerInput[]) => xs.filter((a) => mentions(a.text, acme.brand).length > 0).length / xs.length;
  const byPlatform = PLATFORMS.map((p) => rate(answers.filter((a) => a.platform === p)));
  t.true(
    Math.max(...byPlatform) - Math.min(...byPlatform) > 0.15,
    `by platform ${byPlatform.map((x) => x.toFixed(2))}`,
  );
  const byMonth = ['01', '02', '03'].map((m) => rate(answers.filter((a) => a.collected_at.slice(5, 7) === m)));
  t.true(Math.max(...byMonth) - Math.min(...byMonth) > 0.02, `by month ${byMonth.map((x) => x.toFixed(3))}`);
});

// How fast it streams is for the benches that use it (bench/ingest-workspace.ts), not for a test.
test('streams lazily: the first answers of a million days come without the rest', (t) => {
  const gen = simulateDays({ seed: 1, brands: [acme], from: '2026-01-01', days: 1_000_000 });
  let n = 0;
  for (const a of gen) {
    if (!a.text) t.fail();
    if (++n === 20_000) break;
  }
  t.is(n, 20_000);
});
