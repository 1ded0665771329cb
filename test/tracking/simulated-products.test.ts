// The simulated engine's answers about the demo's products (hiking boots, backpacks, espresso
// beans): stable per (prompt, platform, region, day), and read by the real analysis the way they
// were written: every tracked maker placed in a list is found, at its place, with the tone of the
// reason it was given.
// test-process: shared
import fs from 'node:fs';
import test from 'ava';
import { simulateAnswer, simulateDays, type SimBrand } from '../../src/tracking/capture/simulated/answers.ts';
import { productKindOf } from '../../src/tracking/capture/simulated/products.ts';
import { analyzeAnswer, compileEntities } from '../../src/tracking/analysis/analyze.ts';
import type { AnswerInput } from '../../src/tracking/types.ts';
import type { Entity, Platform } from '../../src/tenancy/tracked.ts';

// The demo's own workspace, so the test follows what `npm run demo` shows.
const workspace = JSON.parse(fs.readFileSync(new URL('../../examples/demo-workspace.json', import.meta.url), 'utf8'));
let n = 0;
const brands: SimBrand[] = workspace.organizations[0].brands.map((b: any) => ({
  brand: { id: `b-${b.slug}`, kind: 'brand', name: b.name, aliases: b.aliases ?? [], domains: b.domains },
  competitors: b.competitors.map((c: any, i: number) => ({
    id: `c-${b.slug}-${i}`,
    kind: 'competitor',
    name: c.name,
    aliases: c.aliases ?? [],
    domains: c.domains,
  })),
  prompts: b.topics.flatMap((t: any) =>
    t.prompts.map((p: any) => ({ id: `p-${n++}`, text: p.text, platforms: p.platforms, regions: p.regions })),
  ),
}));
const brandOf = (a: AnswerInput) => brands.find((b) => b.prompts.some((p) => p.id === a.prompt_id))!;
const entitiesOf = (b: SimBrand): Entity[] => [b.brand, ...b.competitors];
const compiled = new Map(brands.map((b) => [b, compileEntities(entitiesOf(b))]));
const promptText = (a: AnswerInput) => brands.flatMap((b) => b.prompts).find((p) => p.id === a.prompt_id)!.text;

const all = [...simulateDays({ seed: 'demo', brands, from: '2026-03-01', days: 30 })];
const standard = all.filter((a) => a.mode === 'standard');

test('every demo prompt is about a product kind the engine knows', (t) => {
  for (const b of brands) for (const p of b.prompts) t.truthy(productKindOf(p.text), p.text);
  t.is(productKindOf('best crm for startups'), null);
  t.is(productKindOf('most comfortable hiking boots for wide feet')?.noun, 'hiking boots');
  t.is(productKindOf('best ultralight backpack for thru-hiking')?.noun, 'backpacks');
  t.is(productKindOf('best espresso beans for home machines')?.noun, 'espresso beans');
});

test('the same prompt, platform, region and day always give the same answer', (t) => {
  const b = brands[0];
  const one = (day: string, platform: Platform) =>
    simulateAnswer({ seed: 'demo', brand: b, prompt: b.prompts[0], platform, region: 'US', day });
  t.deepEqual(one('2026-03-04', 'chatgpt'), one('2026-03-04', 'chatgpt'));
  const again = [...simulateDays({ seed: 'demo', brands, from: '2026-03-01', days: 30 })];
  t.is(JSON.stringify(again), JSON.stringify(all));
  // Other days and other platforms answer differently.
  const days = new Set(Array.from({ length: 10 }, (_, d) => one(`2026-03-${10 + d}`, 'chatgpt').text));
  t.true(days.size >= 9, `${days.size} distinct texts over 10 days`);
  t.not(one('2026-03-04', 'chatgpt').text, one('2026-03-04', 'perplexity').text);
});

test('answers talk about the products, not about software', (t) => {
  for (const a of standard) {
    t.false(/\b(crm|saas|integrations|onboarding|free tier)\b/i.test(a.text), a.text);
    t.true(a.text.length >= 300 && a.text.length <= 1500, `${a.text.length} chars`);
  }
  const boots = standard.filter((a) => promptText(a).includes('boots'));
  const coffee = standard.filter((a) => promptText(a).includes('espresso'));
  t.true(boots.every((a) => /boot|waterproof|fit|feet|sole|leather|hik/i.test(a.text)));
  t.true(coffee.every((a) => /espresso|roast|bean|shot|crema|grinder/i.test(a.text)));
  t.true(boots.some((a) => /waterproof/i.test(a.text)) && boots.some((a) => /wide/i.test(a.text)));
  t.true(coffee.some((a) => /roast/i.test(a.text)) && coffee.some((a) => /Ethiopia|Brazil|origin/i.test(a.text)));
  // A "vs" prompt is answered as a comparison of the two makers it names.
  const vs = standard.filter((a) => promptText(a).includes(' vs '));
  t.true(vs.length > 0);
  t.true(vs.filter((a) => /^Both .* and .* make capable/.test(a.text)).length > vs.length * 0.8);
});

test('platforms write differently', (t) => {
  const of = (p: Platform) => standard.filter((a) => a.platform === p);
  t.true(
    of('perplexity').some((a) => /\[\d\]/.test(a.text)),
    'Perplexity points at its sources',
  );
  t.false(
    of('chatgpt').some((a) => /\[\d\]$/m.test(a.text)),
    'ChatGPT does not',
  );
  t.true(
    of('gemini').some((a) => /^\* \*\*/m.test(a.text)) &&
      of('gemini').some((a) => /\*\*Key considerations\*\*/.test(a.text)),
  );
  t.true(
    of('chatgpt').some((a) => /^### Top picks$/m.test(a.text)) && of('chatgpt').some((a) => /^1\. \*\*/m.test(a.text)),
  );
  const claude = of('claude').filter((a) => !/^Both /.test(a.text) && !/^Rather than/.test(a.text));
  t.true(claude.length > 0 && claude.every((a) => !/^(\d+\.|-|\*) \*\*/m.test(a.text)), 'Claude writes prose');
  t.true(of('google_ai_overviews').every((a) => !/narrow this down|compare prices/.test(a.text)));
});

/** The list items as written: `**Maker Model**: Reason.`, in order. */
function listItems(text: string): { name: string; reason: string }[] {
  return [...text.matchAll(/^(?:\d+\.|-|\*) \*\*(.+?)\*\*: (.+?)\.(?: \[\d\])?$/gm)].map((m) => ({
    name: m[1],
    reason: m[2],
  }));
}
const startsWithEntity = (item: string, e: Entity) =>
  [e.name, ...e.aliases].some((f) => item.startsWith(f) || item.startsWith(`[${f}`));

test('the analysis finds each tracked maker the list names, at its place in the list', (t) => {
  let checked = 0;
  for (const a of standard) {
    const items = listItems(a.text);
    if (!items.length || /^Both /.test(a.text)) continue; // lists only; comparisons name both first
    const b = brandOf(a);
    const es = entitiesOf(b);
    const { entities } = analyzeAnswer(a, compiled.get(b)!);
    // Who the list names, in its order (untracked makers skipped).
    const listed = items.map((it) => es.find((e) => startsWithEntity(it.name, e))).filter((e) => e !== undefined);
    for (const e of es) {
      const fig = entities.find((f) => f.entity_id === e.id)!;
      if (listed.includes(e)) {
        t.true(fig.mentions >= 1, `${e.name} in ${a.text}`);
        checked++;
      }
    }
    // Positions by first mention follow the list, for the makers the text names nowhere earlier.
    const intro = a.text.slice(0, a.text.search(/^(?:\d+\.|-|\*) \*\*/m));
    const fromList = listed.filter((e) => !startsWithEntity(intro, e) && !intro.includes(e.name));
    const pos = fromList.map((e) => entities.find((f) => f.entity_id === e.id)!.position);
    t.deepEqual(
      pos,
      [...pos].sort((x, y) => x - y),
      a.text,
    );
  }
  t.true(checked > 100, `${checked} placed mentions checked`);
});

test('the tone of the reason each maker is given is the sentiment the analysis reads', (t) => {
  const kinds = new Map(brands.flatMap((b) => b.prompts).map((p) => [p.id, productKindOf(p.text)!]));
  const seen = { positive: 0, negative: 0, neutral: 0 };
  let agree = 0,
    total = 0;
  for (const a of standard) {
    const kind = kinds.get(a.prompt_id)!;
    const b = brandOf(a);
    const es = entitiesOf(b);
    const res = analyzeAnswer(a, compiled.get(b)!);
    for (const it of listItems(a.text)) {
      const i = es.findIndex((e) => startsWithEntity(it.name, e));
      if (i < 0 || res.entities[i].mentions !== 1) continue; // named once: its sentiment is this item's
      const reason = it.reason.charAt(0).toLowerCase() + it.reason.slice(1);
      const expected = kind.praise.some((p) => p.endsWith(reason))
        ? 'positive'
        : kind.faults.some((p) => p.endsWith(reason))
          ? 'negative'
          : null;
      if (!expected) continue;
      const got = res.sentiments[i]?.sentiment;
      seen[got ?? 'neutral']++;
      total++;
      if (got === expected) agree++;
    }
  }
  t.true(total > 100, `${total} items`);
  t.true(agree / total > 0.9, `${agree} of ${total} agree`);
  t.true(seen.positive > 0 && seen.negative > 0, JSON.stringify(seen));
});

test('some answers name the brand, some do not; competitors lead some lists', (t) => {
  for (const b of brands.slice(0, 1)) {
    const mine = standard.filter((a) => brandOf(a) === b);
    const figs = mine.map((a) => analyzeAnswer(a, compiled.get(b)!).entities);
    const named = figs.filter((f) => f[0].mentions > 0).length;
    t.true(named > mine.length * 0.2 && named < mine.length * 0.9, `${named} of ${mine.length}`);
    t.true(
      figs.some((f) => f.every((e) => e.mentions === 0)),
      'answers naming no tracked maker',
    );
    for (const c of b.competitors)
      t.true(
        figs.some((f) => f.find((e) => e.entity_id === c.id)!.position === 1),
        c.name,
      );
  }
});

test('citations point at review, retail, forum and maker pages, in every category', (t) => {
  const cats = new Set<string>();
  for (const a of all) {
    const b = brandOf(a);
    for (const c of analyzeAnswer(a, compiled.get(b)!).citations) cats.add(c.category);
    for (const c of a.citations) {
      t.truthy(c.title, c.url);
      t.notThrows(() => new URL(c.url));
      t.false(/\{[a-zA-Z]+\}/.test(c.url + c.title), `unfilled ${c.url} ${c.title}`);
    }
  }
  t.deepEqual([...cats].sort(), [
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
  t.true(urls.some((u) => /reddit\.com\/r\/(hiking|Ultralight|espresso|Coffee)/.test(u)));
  t.true(urls.some((u) => /^https:\/\/(www\.)?trailpeak\.example\/(products|collections|pages|blog)\//.test(u)));
  t.true(urls.some((u) => /^https:\/\/(www\.)?cafenoir\.example\//.test(u)));
  t.true(
    urls.some((u) => /outdoorgearlab\.com|switchbacktravel\.com/.test(u)) &&
      urls.some((u) => /coffeereview\.com|home-barista\.com/.test(u)),
  );
  const shopping = all.filter((a) => a.mode === 'shopping').flatMap((a) => a.products);
  t.true(shopping.length > 0 && shopping.every((p) => /Boot|Pack|Backpack|Espresso|Coffee/.test(String(p.title))));
});
