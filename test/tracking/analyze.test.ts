// test-process: shared
import test from 'ava';
import { analyzeAnswer, compileEntities, mentionText, visibilityScore } from '../../src/tracking/analysis/analyze.ts';
import type { CitationInput } from '../../src/tracking/types.ts';
import type { Entity } from '../../src/tenancy/tracked.ts';

const acme: Entity = {
  id: 'acme',
  kind: 'brand',
  name: 'Acme',
  aliases: ['Acme CRM', 'AcmeSoft'],
  domains: ['acme.com'],
};
const globex: Entity = {
  id: 'globex',
  kind: 'competitor',
  name: 'Globex',
  aliases: ['Globex Corporation'],
  domains: ['globex.com', 'globex.io'],
};
const initech: Entity = { id: 'initech', kind: 'competitor', name: 'Initech', aliases: [], domains: ['initech.net'] };
const compiled = compileEntities([acme, globex, initech]);

const run = (text: string, citations: CitationInput[] = [], c = compiled) => analyzeAnswer({ text, citations }, c);
/** entity_id -> [mentions, position, citations] */
const brief = (r: ReturnType<typeof run>) =>
  Object.fromEntries(r.entities.map((e) => [e.entity_id, [e.mentions, e.position, e.citations]]));

test('mentions count names, aliases and domains, case-insensitively', (t) => {
  const r = run(
    'For startups, Acme CRM is the easiest. Globex Corporation targets enterprises, while acme.com offers a free trial. ' +
      'AcmeSoft and ACME are the same vendor; globex is not.',
  );
  t.deepEqual(r.entities, [
    { entity_id: 'acme', kind: 'brand', mentions: 4, position: 1, citations: 0, score: 75 },
    { entity_id: 'globex', kind: 'competitor', mentions: 2, position: 2, citations: 0, score: 67.5 },
    { entity_id: 'initech', kind: 'competitor', mentions: 0, position: 0, citations: 0, score: 0 },
  ]);
  t.deepEqual(r.citations, []);
});

test('a match needs non-letter, non-digit neighbours', (t) => {
  const r = run(
    'Acmeville, SuperAcme, Acme2, 2Acme, Acme_Labs, (Acme), "acme", Acme-based, acme.community, Globexes, notacme.com, acmeXcom',
  );
  // Counted: Acme_Labs, (Acme), "acme", Acme-based, and "acme" in acme.community ("." is not a letter).
  t.deepEqual(brief(r), { acme: [5, 1, 0], globex: [0, 0, 0], initech: [0, 0, 0] });
});

test('overlapping forms: the longest form at one place wins, across entities', (t) => {
  const apple: Entity = { id: 'apple', kind: 'brand', name: 'Apple', aliases: [], domains: ['apple.com'] };
  const music: Entity = { id: 'music', kind: 'competitor', name: 'Apple Music', aliases: [], domains: [] };
  const c = compileEntities([apple, music]);
  // "Apple Music" is one mention of Apple Music; "Apple Musicals" fails Apple Music's boundary, so it is Apple.
  const r = run('Apple Music beats Spotify. Apple\nMusic again. Apple Musicals. apple.com and Apple.', [], c);
  t.deepEqual(r.entities, [
    { entity_id: 'apple', kind: 'brand', mentions: 3, position: 2, citations: 0, score: 67.5 },
    { entity_id: 'music', kind: 'competitor', mentions: 2, position: 1, citations: 0, score: 75 },
  ]);
});

test('overlapping forms that start at different places: leftmost first, then longest', (t) => {
  const a: Entity = { id: 'a', kind: 'brand', name: 'Acme Cloud', aliases: [], domains: [] };
  const b: Entity = { id: 'b', kind: 'competitor', name: 'Cloud Nine', aliases: ['Nine'], domains: [] };
  const c = compileEntities([a, b]);
  // "Acme Cloud Nine": "Acme Cloud" starts first; the rest ("Nine") is a separate match of b.
  t.deepEqual(brief(run('Acme Cloud Nine', [], c)), { a: [1, 1, 0], b: [1, 2, 0] });
  t.deepEqual(brief(run('Cloud Nine', [], c)), { a: [0, 0, 0], b: [1, 1, 0] });
});

test('a form shared by two entities counts for the first (brand first)', (t) => {
  const b: Entity = { id: 'b', kind: 'brand', name: 'Nova', aliases: ['NV'], domains: [] };
  const c1: Entity = { id: 'c1', kind: 'competitor', name: 'Nova', aliases: ['Polaris'], domains: [] };
  const c = compileEntities([c1, b]); // the brand is put first whatever the order given
  const r = run('Polaris and nova and NV', [], c);
  t.deepEqual(
    r.entities.map((e) => [e.entity_id, e.mentions, e.position]),
    [
      ['b', 2, 2],
      ['c1', 1, 1],
    ],
  );
});

test('non-ASCII names: Unicode case folding and boundaries', (t) => {
  const skoda: Entity = { id: 'skoda', kind: 'brand', name: 'Škoda', aliases: ['Škoda Auto'], domains: [] };
  const cafe: Entity = { id: 'cafe', kind: 'competitor', name: 'Café Noir', aliases: [], domains: [] };
  const ecole: Entity = { id: 'ecole', kind: 'competitor', name: 'école', aliases: [], domains: [] };
  const c = compileEntities([skoda, cafe, ecole]);
  const r = run(
    'ŠKODA AUTO leads; café noir and CAFÉ  NOIR follow. L’ÉCOLE ferme. ' +
      'Škodaová is another word, so is xŠkoda; decomposed Cafe\u0301 Noir counts, Café Noiré does not. škoda’s cars.',
    [],
    c,
  );
  t.deepEqual(brief(r), { skoda: [2, 1, 0], cafe: [3, 2, 0], ecole: [1, 3, 0] });
});

test('case folding beyond toLowerCase: Greek sigma forms, Kelvin sign', (t) => {
  const c = compileEntities([
    { id: 'odos', kind: 'brand', name: 'ΟΔΟΣ', aliases: [], domains: [] },
    { id: 'kk', kind: 'competitor', name: 'Kilo', aliases: [], domains: [] },
  ]);
  // σ, ς and Σ fold together in Unicode; the Kelvin sign K folds to k.
  t.deepEqual(brief(run('οδοσ, Οδος and ΟΔΟΣ; \u212Ailo', [], c)), { odos: [3, 1, 0], kk: [1, 2, 0] });
});

test('markdown link targets are removed, labels stay', (t) => {
  const text =
    'Try [Acme](https://acme.com) first, or ![Globex logo](https://cdn.example.com/globex.png "Globex"). ' +
    '[Read more](https://initech.net/acme-vs-globex) and [Wiki](https://en.wikipedia.org/wiki/Acme_(company)).';
  t.is(mentionText(text), 'Try [Acme] first, or ![Globex logo]. [Read more] and [Wiki].');
  t.deepEqual(brief(run(text)), { acme: [1, 1, 0], globex: [1, 2, 0], initech: [0, 0, 0] });
});

test('bare URLs are removed before matching; a domain written as text is a mention', (t) => {
  const text =
    'See https://acme.com/pricing, http://globex.com/Acme and www.acme.com or <https://initech.net>. ' +
    '[https://globex.com](https://globex.com). Or just visit initech.net today.';
  t.deepEqual(brief(run(text)), { acme: [0, 0, 0], globex: [0, 0, 0], initech: [1, 1, 0] });
});

test('positions: by first mention; absent entities have position 0', (t) => {
  t.deepEqual(brief(run('Initech, then Globex, then Acme, then Initech again.')), {
    acme: [1, 3, 0],
    globex: [1, 2, 0],
    initech: [2, 1, 0],
  });
  t.deepEqual(brief(run('Only Globex here.')), { acme: [0, 0, 0], globex: [1, 1, 0], initech: [0, 0, 0] });
  t.deepEqual(brief(run('Nothing relevant.')), { acme: [0, 0, 0], globex: [0, 0, 0], initech: [0, 0, 0] });
  t.deepEqual(brief(run('')), { acme: [0, 0, 0], globex: [0, 0, 0], initech: [0, 0, 0] });
});

test('citations: de-duplicated by normalised URL, sub-domains belong, substrings do not', (t) => {
  const r = run('Acme is named.', [
    { url: 'https://www.acme.com/blog/?utm_source=chatgpt.com', title: '' },
    { url: 'https://acme.com/blog', title: 'Acme blog' },
    { url: 'https://docs.acme.com/start', title: 'Getting started' },
    { url: 'https://notacme.com/acme-review', title: null },
    { url: 'https://other.com/?ref=acme.com' },
    { url: 'https://globex.io/pricing#plans', title: 'Pricing' },
    { url: 'ftp://acme.com/file', title: 'dropped' },
    { url: 'garbage', title: 'dropped' },
    { url: 'https://old.reddit.com/r/crm/comments/1/acme', title: ' Is Acme good? ' },
    { url: 'https://ACME.com/blog#top', title: 'Later title' },
  ]);
  t.deepEqual(r.citations, [
    { url: 'https://acme.com/blog', domain: 'acme.com', category: 'you', article_type: 'other', title: 'Acme blog' },
    {
      url: 'https://docs.acme.com/start',
      domain: 'docs.acme.com',
      category: 'you',
      article_type: 'documentation',
      title: 'Getting started',
    },
    {
      url: 'https://notacme.com/acme-review',
      domain: 'notacme.com',
      category: 'other',
      article_type: 'review',
      title: '',
    },
    { url: 'https://other.com/', domain: 'other.com', category: 'other', article_type: 'homepage', title: '' },
    {
      url: 'https://globex.io/pricing',
      domain: 'globex.io',
      category: 'competitor',
      article_type: 'other',
      title: 'Pricing',
    },
    {
      url: 'https://old.reddit.com/r/crm/comments/1/acme',
      domain: 'old.reddit.com',
      category: 'forum',
      article_type: 'discussion',
      title: 'Is Acme good?',
    },
  ]);
  t.deepEqual(r.entities, [
    { entity_id: 'acme', kind: 'brand', mentions: 1, position: 1, citations: 2, score: 100 },
    { entity_id: 'globex', kind: 'competitor', mentions: 0, position: 0, citations: 1, score: 25 },
    { entity_id: 'initech', kind: 'competitor', mentions: 0, position: 0, citations: 0, score: 0 },
  ]);
});

test('citation categories and article types of a realistic answer', (t) => {
  const r = run('Globex and Acme both work.', [
    { url: 'https://www.nytimes.com/2025/11/03/technology/crm.html', title: 'The CRM boom' },
    { url: 'https://www.youtube.com/watch?v=abc', title: 'Acme tutorial' },
    { url: 'https://www.youtube.com/watch?v=def', title: 'Acme vs Globex' },
    { url: 'https://www.g2.com/products/acme/reviews', title: 'Acme Reviews 2025' },
    { url: 'https://en.wikipedia.org/wiki/Acme', title: 'Acme - Wikipedia' },
    { url: 'https://www.ox.ac.uk/research', title: '' },
    { url: 'https://shop.initech.net/products/widget', title: 'Widget' },
  ]);
  t.deepEqual(
    r.citations.map((c) => [c.domain, c.category, c.article_type]),
    [
      ['nytimes.com', 'editorial', 'news'],
      ['youtube.com', 'social', 'how_to'],
      ['youtube.com', 'social', 'comparison'],
      ['g2.com', 'review', 'review'],
      ['en.wikipedia.org', 'institutional', 'other'],
      ['ox.ac.uk', 'institutional', 'other'],
      ['shop.initech.net', 'competitor', 'product'],
    ],
  );
  t.deepEqual(brief(r), { acme: [1, 2, 0], globex: [1, 1, 0], initech: [0, 0, 1] });
});

test('scores: 100 x (0.6 named + 0.25 cited + 0.15 / position), unrounded', (t) => {
  t.is(visibilityScore(true, true, 1), 100);
  t.is(visibilityScore(true, false, 1), 75);
  t.is(visibilityScore(true, false, 2), 67.5);
  t.is(visibilityScore(true, true, 3), 90);
  t.is(visibilityScore(true, false, 4), 63.74999999999999);
  t.is(visibilityScore(false, true, 0), 25);
  t.is(visibilityScore(false, false, 0), 0);
  const r = run('Initech, Globex, Acme.', [{ url: 'https://acme.com/x' }]);
  t.deepEqual(
    r.entities.map((e) => e.score),
    [90, 67.5, 75],
  );
});

test('entities without forms or domains, and answers without citations field', (t) => {
  const empty: Entity = { id: 'e', kind: 'brand', name: '', aliases: ['  '], domains: [''] };
  const c = compileEntities([empty]);
  t.deepEqual(analyzeAnswer({ text: 'anything', citations: [] }, c).entities, [
    { entity_id: 'e', kind: 'brand', mentions: 0, position: 0, citations: 0, score: 0 },
  ]);
  const r = analyzeAnswer({ text: 'Acme' } as { text: string; citations: CitationInput[] }, compiled);
  t.is(r.entities[0].mentions, 1);
  t.deepEqual(r.citations, []);
});

test('surface forms are literal text, not patterns', (t) => {
  const c = compileEntities([
    { id: 'cpp', kind: 'brand', name: 'C++ Builder', aliases: ['A.B'], domains: [] },
    { id: 'q', kind: 'competitor', name: 'Who?', aliases: ['(Beta)'], domains: [] },
  ]);
  t.deepEqual(brief(run('c++ builder, AxB, a.b, who? and who (beta)', [], c)), { cpp: [2, 1, 0], q: [2, 2, 0] });
});

test('citations: past 64 in one answer, de-duplicated the same way, the first non-empty title kept', (t) => {
  for (const n of [60, 64, 65, 300]) {
    const citations: CitationInput[] = [];
    for (let k = 0; k < n; k++) {
      const page = k % 40; // each page cited again, spelled another way, with or without a title
      citations.push({
        url: k % 2 ? `https://WWW.acme.com/p${page}/?utm_source=x` : `https://acme.com/p${page}`,
        title: k < 40 ? '' : `Title ${k}`,
      });
    }
    const pages = Math.min(n, 40);
    t.deepEqual(
      run('Acme.', citations).citations.map((c) => [c.url, c.title]),
      Array.from({ length: pages }, (_, p) => [`https://acme.com/p${p}`, p + 40 < n ? `Title ${p + 40}` : '']),
      `${n} citations`,
    );
  }
});

test('citations: a page cited under two brands takes each brand’s category, and each title its type', (t) => {
  const asCompetitor = compileEntities([
    { id: 'globex', kind: 'brand', name: 'Globex', aliases: [], domains: ['globex.com'] },
    { ...acme, kind: 'competitor' },
  ]);
  const page = 'https://acme.com/blog/post';
  for (let round = 0; round < 2; round++) {
    for (const [c, category] of [
      [compiled, 'you'],
      [asCompetitor, 'competitor'],
    ] as const) {
      t.deepEqual(
        run('Acme.', [{ url: page, title: 'Acme review' }], c).citations.map((x) => [x.category, x.article_type]),
        [[category, 'review']],
      );
      t.deepEqual(
        run('Acme.', [{ url: page, title: 'How to set up Acme' }], c).citations.map((x) => [
          x.category,
          x.article_type,
        ]),
        [[category, 'how_to']],
      );
      t.is(run('Acme.', [{ url: page }], c).citations[0].article_type, 'other');
    }
  }
});
