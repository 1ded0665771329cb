// The built-in generator: its briefs and drafts validate against the schemas for every kind of
// input, say only what the tracking facts support, and carry valid JSON-LD.
// test-process: shared
import test from 'ava';
import { Brief, Draft, DraftBody } from '../../src/content/schemas.ts';
import { builtinBrief } from '../../src/content/llm/builtin-brief.ts';
import { builtinDraft } from '../../src/content/llm/builtin-draft.ts';
import { buildJsonLd, isArticleWithFaqJsonLd } from '../../src/content/jsonld.ts';
import type { GenerationInput } from '../../src/content/llm/generator-types.ts';

function input(
  over: { prompt?: string; type?: 'owned' | 'earned'; rivals?: boolean; sources?: boolean; domains?: string[] } = {},
): GenerationInput {
  const rivals = over.rivals ?? true;
  const sources = over.sources ?? true;
  return {
    brand: { name: 'Acme', domains: over.domains ?? ['acme.example'], industry: 'Software', region: 'US' },
    opportunity: {
      id: '00000000-0000-4000-8000-000000000001',
      type: over.type ?? 'owned',
      title: 't',
      description: 'd',
      prompt_text: over.prompt ?? 'best crm for startups',
      source_data: {
        answers: 10,
        gap_answers: 7,
        brand: { name: 'Acme', named: 2, cited: 1, visibility_score: 21.5 },
        competitors: rivals
          ? [
              { name: 'Globex', named: 8, cited: 3, visibility_score: 71 },
              { name: 'Initech', named: 4, cited: 0, visibility_score: 30.2 },
            ]
          : [],
        citations: {
          top_domains: sources
            ? [
                { domain: 'g2.com', category: 'review', answers: 5 },
                { domain: 'globex.example', category: 'competitor', answers: 3 },
              ]
            : [],
          top_urls: sources
            ? [
                {
                  url: 'https://www.g2.com/categories/crm',
                  domain: 'g2.com',
                  category: 'review',
                  title: 'Best CRM Software <2026>',
                  article_type: 'listicle',
                  answers: 5,
                },
                {
                  url: 'https://globex.example/compare',
                  domain: 'globex.example',
                  category: 'competitor',
                  title: 'Globex vs Acme',
                  article_type: 'comparison',
                  answers: 3,
                },
              ]
            : [],
        },
      },
    },
    volumes: {
      intent: 'commercial',
      keywords: ['best crm for startups', 'crm'],
      google_volumes: [{ keyword: 'crm for startups', volume: 1600 }],
    },
  };
}

const cases: [string, GenerationInput][] = [
  ['owned listicle', input()],
  ['earned listicle', input({ type: 'earned' })],
  ['comparison', input({ prompt: 'Globex alternatives for small teams' })],
  ['how-to', input({ prompt: 'How do I migrate my CRM data?' })],
  ['no rivals, no sources, no domain', input({ rivals: false, sources: false, domains: [] })],
  ['a very long prompt', input({ prompt: `which crm ${'really '.repeat(400)}works` })],
  ['markup in the prompt', input({ prompt: 'best <script>alert(1)</script> crm & "tools"' })],
];

for (const [name, given] of cases) {
  test(`built-in brief and draft validate: ${name}`, (t) => {
    const brief = builtinBrief(given);
    const b = Brief.safeParse(brief);
    t.true(b.success, JSON.stringify(b.error?.issues));
    const body = builtinDraft(given, brief);
    const d = DraftBody.safeParse(body);
    t.true(d.success, JSON.stringify(d.error?.issues));
    const jsonLd = buildJsonLd({
      ...body,
      keywords: brief.targetKeywords,
      publisher: { name: 'Acme', domain: given.brand.domains[0] },
    });
    t.true(Draft.safeParse({ ...body, structuredDataJsonLd: jsonLd }).success);
    t.false(/lorem|ipsum/i.test(JSON.stringify({ brief, body })));
    t.false(body.contentHtml.includes('<script>'), 'text is escaped');
  });
}

test('the brief rests on the tracking facts', (t) => {
  const brief = builtinBrief(input());
  t.is(brief.contentType, 'listicle');
  t.regex(brief.suggestedTitle, /^Best CRM for startups: Acme, Globex and Initech compared$/);
  t.deepEqual(brief.targetKeywords.slice(0, 2), ['crm for startups', 'best crm for startups']);
  t.regex(brief.competitorInsights, /Globex is named in 8 and cited in 3 \(visibility score 71\)/);
  t.regex(brief.competitorInsights, /g2\.com \(review, 5 answers\)/);
  t.regex(brief.competitorInsights, /Acme is named in 2 and cited in 1/);
  t.true(brief.outline.some((o) => o.startsWith('Globex — ')));
  t.regex(brief.callToAction, /acme\.example/);
  t.regex(builtinBrief(input({ type: 'earned' })).callToAction, /editors of g2\.com/);
  t.is(builtinBrief(input({ prompt: 'How do I migrate my CRM data?' })).contentType, 'how_to');
  t.is(builtinBrief(input({ prompt: 'Globex alternatives for small teams' })).contentType, 'comparison');
  t.deepEqual(builtinBrief(input()), builtinBrief(input()), 'deterministic');
});

test('the draft follows the outline, links the cited sources and leaves unknown facts to the editor', (t) => {
  const given = input();
  const brief = builtinBrief(given);
  const draft = builtinDraft(given, brief);
  const headings = [...draft.contentHtml.matchAll(/<h2>(.*?)<\/h2>/g)].map((m) => m[1]);
  t.deepEqual(
    headings,
    brief.outline.map((o) => o.split(' — ')[0]),
  );
  t.true(draft.contentHtml.includes('<a href="https://www.g2.com/categories/crm">Best CRM Software &lt;2026&gt;</a>'));
  t.regex(draft.contentHtml, /class="editor-note"/);
  t.is(draft.slug, 'best-crm-for-startups');
  t.true(draft.metaTitle.length <= 60);
  t.is(draft.faqs[0].question, 'Which CRM for startups is best?');
  // An outline written elsewhere (e.g. by a model): sections it cannot write stay editor notes.
  const foreign = {
    ...brief,
    outline: ['Why teams switch', 'Pricing explained — what each plan costs', 'Frequently asked questions'],
  };
  const other = builtinDraft(given, foreign);
  t.regex(
    other.contentHtml,
    /<h2>Why teams switch<\/h2>\n<p class="editor-note"><strong>Editor:<\/strong> Write this section: Why teams switch<\/p>/,
  );
  t.regex(other.contentHtml, /Write this section: what each plan costs/);
  t.regex(other.contentHtml, /<h2>Frequently asked questions<\/h2>\n<h3>/);
});

test('JSON-LD: an Article and a FAQPage of answered questions, checked strictly', (t) => {
  const faqs = [{ question: 'Q <b>one</b>?', answer: 'A one.' }];
  const doc = JSON.parse(
    buildJsonLd({
      title: 'T',
      metaDescription: 'D',
      slug: 's',
      keywords: ['k1', 'k2'],
      faqs,
      publisher: { name: 'Acme', domain: 'acme.example' },
    }),
  );
  t.is(doc['@context'], 'https://schema.org');
  t.deepEqual(
    doc['@graph'].map((n: any) => n['@type']),
    ['Article', 'FAQPage'],
  );
  t.like(doc['@graph'][0], {
    headline: 'T',
    mainEntityOfPage: 'https://acme.example/s',
    keywords: 'k1, k2',
    publisher: { '@type': 'Organization', name: 'Acme' },
  });
  t.deepEqual(doc['@graph'][1].mainEntity, [
    { '@type': 'Question', name: 'Q one?', acceptedAnswer: { '@type': 'Answer', text: 'A one.' } },
  ]);
  t.true(isArticleWithFaqJsonLd(JSON.stringify(doc)));
  for (const bad of [
    'not json',
    '{}',
    JSON.stringify({ ...doc, '@context': 'https://example.org' }),
    JSON.stringify({ ...doc, '@graph': [doc['@graph'][0]] }),
    JSON.stringify({
      ...doc,
      '@graph': [doc['@graph'][0], { '@type': 'FAQPage', mainEntity: [{ '@type': 'Question', name: 'x' }] }],
    }),
  ]) {
    t.false(isArticleWithFaqJsonLd(bad), bad);
  }
});
