// Signals and scoring on hand-made pages, without a network: each case states what the page holds
// and the status, score and evidence expected.
// test-process: shared
import test from 'ava';
import fs from 'node:fs';
import { parsePage } from '../../src/audits/page.ts';
import { evaluateSignals, type AuditInput, type Signal } from '../../src/audits/signals/index.ts';
import { figures } from '../../src/audits/signals/authority.ts';
import { syllables } from '../../src/audits/signals/content.ts';
import { scoreSignals } from '../../src/audits/score.ts';
import { CATEGORIES, CATEGORY_WEIGHTS } from '../../src/audits/categories.ts';
import { RUBRIC, SIGNAL_KEYS, type SignalKey } from '../../src/audits/rubric.ts';
import type { SiteFile, SiteFiles } from '../../src/audits/site.ts';

const NOW = new Date('2026-06-15T12:00:00Z');
const file = (url: string, status: number | null, body = '', contentType = 'text/plain'): SiteFile => ({
  url,
  status,
  body,
  contentType,
  ...(status === null ? { error: `Timed out after 7.5 s fetching ${url}` } : {}),
});

function audit(
  html: string,
  o: {
    url?: string;
    robots?: SiteFile;
    llms?: SiteFile;
    sitemap?: SiteFiles['sitemap'];
    headers?: Record<string, string>;
    redirects?: string[];
    firstByteMs?: number;
  } = {},
) {
  const url = o.url ?? 'https://example.com/guide';
  const site: SiteFiles = {
    robots: o.robots ?? file('https://example.com/robots.txt', 404, 'not found'),
    llms: o.llms ?? file('https://example.com/llms.txt', 404),
    sitemap: o.sitemap ?? { ...file('https://example.com/sitemap.xml', 404), source: 'default' },
    sitemapsDeclared: [],
  };
  const input: AuditInput = {
    page: parsePage(html, url),
    site,
    fetch: {
      requestedUrl: url,
      redirects: o.redirects ?? [],
      firstByteMs: o.firstByteMs ?? 50,
      totalMs: (o.firstByteMs ?? 50) + 5,
      bytes: html.length,
      headers: { 'content-type': 'text/html; charset=utf-8', ...o.headers },
    },
    now: NOW,
    fastMs: 600,
  };
  const signals = evaluateSignals(input);
  return (key: SignalKey): Signal => signals.find((s) => s.key === key)!;
}

const page = (head: string, body: string, lang = 'en') =>
  `<!doctype html><html lang="${lang}"><head>${head}</head><body>${body}</body></html>`;

test('the rubric: five categories weighing 1 in all, 40+ signals, each documented', (t) => {
  t.deepEqual([...CATEGORIES], ['technical', 'structure', 'content', 'authority', 'eeat']);
  t.is(Math.round(Object.values(CATEGORY_WEIGHTS).reduce((a, b) => a + b, 0) * 1000), 1000);
  t.true(SIGNAL_KEYS.length >= 40);
  t.is(SIGNAL_KEYS.length, 52);
  for (const c of CATEGORIES)
    t.true(
      SIGNAL_KEYS.some((k) => RUBRIC[k].category === c),
      c,
    );
  const docs = fs.readFileSync('docs/audits.md', 'utf8');
  for (const k of SIGNAL_KEYS) {
    const row = docs.split('\n').find((l) => l.startsWith(`| \`${k}\` |`));
    t.truthy(row, `docs/audits.md has a row for ${k}`);
    t.is(Number(row!.split('|')[2].trim()), RUBRIC[k].weight, `documented weight of ${k}`);
  }
  t.true(docs.includes(`checks ${SIGNAL_KEYS.length} signals`));
});

test('every signal is evaluated once, in rubric order, with a consistent status and score', (t) => {
  const get = audit(page('<title>x</title>', '<p>hi</p>'));
  for (const k of SIGNAL_KEYS) {
    const s = get(k);
    t.is(s.category, RUBRIC[k].category);
    if (s.status === 'pass') t.is(s.score, 1, k);
    if (s.status === 'fail' || s.status === 'na') t.is(s.score, 0, k);
    if (s.status === 'warn') t.true(s.score > 0 && s.score < 1, k);
    t.true(s.evidence.length > 5, k);
  }
});

test('robots.txt is read per AI crawler, search bots apart from training bots', (t) => {
  const robots = file(
    'https://example.com/robots.txt',
    200,
    [
      'User-agent: GPTBot',
      'Disallow: /',
      '',
      'User-agent: PerplexityBot',
      'Disallow: /guide',
      '',
      'User-agent: *',
      'Allow: /',
      '',
    ].join('\n'),
  );
  const get = audit(page('', ''), { robots });
  t.like(get('robots_ai_search'), {
    status: 'warn',
    score: 0.75,
    evidence:
      'Allowed: OAI-SearchBot, ChatGPT-User, Claude-SearchBot. Blocked by robots.txt: PerplexityBot (line 5). These bots cannot fetch the page to cite it.',
  });
  t.like(get('robots_ai_training'), { status: 'warn', score: 0.86 });
  t.regex(get('robots_ai_training').evidence, /Blocked by robots.txt: GPTBot \(line 2\)\./);
  t.like(get('robots_search_engines'), { status: 'pass', evidence: 'Allowed: Googlebot, Bingbot.' });
  t.like(get('robots_txt'), { status: 'warn', score: 0.8 });
  t.regex(get('robots_txt').evidence, /3 user-agent lines, 0 Sitemap lines\)\. It does not point to a sitemap\./);
});

test('robots.txt missing allows everyone; unreachable is a warning and a failing robots_txt', (t) => {
  const missing = audit(page('', ''));
  t.like(missing('robots_ai_search'), { status: 'pass' });
  t.regex(missing('robots_ai_search').evidence, /answers HTTP 404, so there are no rules/);
  t.like(missing('robots_txt'), { status: 'warn', score: 0.5 });
  const down = audit(page('', ''), { robots: file('https://example.com/robots.txt', 503, 'busy') });
  t.like(down('robots_ai_search'), { status: 'warn', score: 0.5 });
  t.regex(
    down('robots_ai_search').evidence,
    /HTTP 503\); crawlers that follow RFC 9309 treat the whole site as disallowed/,
  );
  t.like(down('robots_txt'), { status: 'fail' });
});

test('robots.txt rules count even when served as text/html; an HTML page does not', (t) => {
  const rules = file('https://example.com/robots.txt', 200, 'User-agent: ClaudeBot\nDisallow: /\n', 'text/html');
  t.like(audit(page('', ''), { robots: rules })('robots_ai_training'), { status: 'warn', score: 0.86 });
  const soft404 = file(
    'https://example.com/robots.txt',
    200,
    '<!DOCTYPE html><html><body>App</body></html>',
    'text/html',
  );
  t.like(audit(page('', ''), { robots: soft404 })('robots_txt'), {
    status: 'warn',
    score: 0.5,
    evidence: '/robots.txt answers with an HTML page instead of plain-text rules.',
  });
  t.like(audit(page('', ''), { robots: soft404 })('robots_ai_search'), { status: 'pass' });
});

test('robots directives: noindex fails, nosnippet warns', (t) => {
  t.like(audit(page('<meta name="robots" content="noindex, follow">', ''))('meta_robots'), {
    status: 'fail',
    evidence: 'meta robots="noindex, follow": the page asks not to be indexed.',
  });
  t.like(audit(page('', ''), { headers: { 'x-robots-tag': 'nosnippet' } })('meta_robots'), {
    status: 'warn',
    score: 0.3,
  });
});

test('llms.txt: shape is checked', (t) => {
  const partial = audit(page('', ''), {
    llms: file('https://example.com/llms.txt', 200, 'Acme\n\nSome text about us.\n'),
  });
  t.like(partial('llms_txt'), { status: 'warn', score: 0.3 });
  t.regex(partial('llms_txt').evidence, /no H1 title on the first line, no > summary, 0 ## sections, 0 Markdown links/);
  const soft404 = audit(page('', ''), {
    llms: file('https://example.com/llms.txt', 200, '<!doctype html><html>', 'text/html'),
  });
  t.like(soft404('llms_txt'), {
    status: 'warn',
    score: 0.25,
    evidence: 'No /llms.txt (answers with an HTML page). It is optional and read by few AI tools today.',
  });
});

test('sitemap: missing fails, a sitemap without the page warns', (t) => {
  t.like(audit(page('', ''))('sitemap'), {
    status: 'fail',
    evidence: 'No sitemap: robots.txt declares none and https://example.com/sitemap.xml answers HTTP 404.',
  });
  const other = {
    ...file(
      'https://example.com/sitemap.xml',
      200,
      '<urlset><url><loc>https://example.com/other</loc></url></urlset>',
      'application/xml',
    ),
    source: 'robots' as const,
  };
  t.like(audit(page('', ''), { sitemap: other })('sitemap'), { status: 'warn', score: 0.6 });
  const listed = {
    ...file(
      'https://example.com/sitemap.xml',
      200,
      '<urlset><url><loc>https://www.example.com/guide/</loc></url></urlset>',
      'application/xml',
    ),
    source: 'robots' as const,
  };
  t.like(audit(page('', ''), { sitemap: listed })('sitemap'), { status: 'pass' });
});

test('a client-only shell fails server-rendered text', (t) => {
  const get = audit(page('<script src="/app.js"></script>', '<div id="root"></div>'));
  t.like(get('server_rendered_text'), {
    status: 'fail',
    evidence:
      'Only 0 words of text in the HTML as served (1 script file, an empty <div id="root">): the content is built in the browser by JavaScript, which most AI crawlers do not run.',
  });
});

test('HTTPS page: mixed content is judged; HTTP page: not applicable', (t) => {
  const html = page(
    '<link rel="stylesheet" href="http://cdn.example.com/a.css">',
    '<img src="http://cdn.example.com/a.png" alt="a">',
  );
  t.like(audit(html)('mixed_content'), {
    status: 'fail',
    evidence: '1 script, stylesheet or frame and 1 media file load over plain HTTP.',
  });
  t.like(audit(html)('https'), { status: 'pass', evidence: 'Served over HTTPS.' });
  const plain = audit(html, { url: 'http://example.com/guide' });
  t.like(plain('mixed_content'), { status: 'na' });
  t.like(plain('https'), { status: 'fail', evidence: 'Served over plain HTTP (http://example.com).' });
});

test('canonical, viewport, lang, charset and redirects', (t) => {
  const get = audit(
    page(
      '<link rel="canonical" href="/other"><meta name="viewport" content="width=device-width, user-scalable=no">',
      '',
      'english',
    ),
    { redirects: ['http://example.com/a', 'https://example.com/b'], headers: { 'content-type': 'text/html' } },
  );
  t.like(get('canonical'), {
    status: 'warn',
    score: 0.5,
    evidence:
      'Canonical URL points elsewhere (https://example.com/other): engines will index and cite that URL instead of this one.',
  });
  t.like(get('viewport'), { status: 'warn', score: 0.7 });
  t.like(get('lang'), { status: 'warn', score: 0.5 });
  t.like(get('charset'), { status: 'fail' });
  t.like(get('redirects'), {
    status: 'warn',
    score: 0.5,
    evidence: '2 redirects: http://example.com/a -> https://example.com/b -> https://example.com/guide.',
  });
  t.like(audit(page('<link rel="canonical" href="https://example.com/guide/">', ''))('canonical'), { status: 'pass' });
});

test('response time is graded linearly between 600 ms and 3 s', (t) => {
  t.like(audit(page('', ''), { firstByteMs: 600 })('response_time'), { status: 'pass' });
  t.like(audit(page('', ''), { firstByteMs: 1500 })('response_time'), { status: 'warn', score: 0.5 });
  t.like(audit(page('', ''), { firstByteMs: 3000 })('response_time'), { status: 'fail' });
});

test('headings: one H1, no skipped levels', (t) => {
  const get = audit(page('', '<h1>A</h1><h1>B</h1><h2>C</h2><h4>D</h4>'));
  t.like(get('single_h1'), { status: 'warn', score: 0.5, evidence: '2 H1 headings: "A", "B".' });
  t.like(get('heading_hierarchy'), {
    status: 'warn',
    score: 0.5,
    evidence: '2 H1, 1 H2, 1 H4; one skipped level: H2 -> H4 at "D".',
  });
});

test('JSON-LD: a broken block and a type that does not fit the page', (t) => {
  const html = page(
    '<script type="application/ld+json">{"@context":"https://schema.org","@type":"WebPage","name":"x"}</script>' +
      '<script type="application/ld+json">{"@type": "Organization", name: broken}</script>' +
      '<meta property="og:type" content="product">',
    '',
  );
  const get = audit(html);
  t.like(get('json_ld_present'), { status: 'pass', evidence: '2 JSON-LD blocks: WebPage.' });
  t.like(get('json_ld_valid'), { status: 'warn', score: 0.5 });
  t.regex(get('json_ld_valid').evidence, /^1 of 2 blocks valid: block 2 is not valid JSON/);
  t.like(get('json_ld_type_fit'), {
    status: 'fail',
    evidence: 'This looks like a product page, but the JSON-LD has no Product (found: WebPage).',
  });
});

test('FAQ: visible questions without markup fail; with FAQPage they pass', (t) => {
  const qa = '<h2>What is it?</h2><p>A thing.</p><h2>How much is it?</h2><p>Ten dollars.</p>';
  t.like(audit(page('', qa))('faq_markup'), {
    status: 'fail',
    evidence: '2 questions on the page (e.g. "What is it?") without FAQ markup.',
  });
  const ld = JSON.stringify({
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: [
      { '@type': 'Question', name: 'What is it?', acceptedAnswer: { '@type': 'Answer', text: 'A thing.' } },
      { '@type': 'Question', name: 'How much is it?', acceptedAnswer: { '@type': 'Answer', text: 'Ten dollars.' } },
    ],
  });
  t.like(audit(page(`<script type="application/ld+json">${ld}</script>`, qa))('faq_markup'), { status: 'pass' });
  t.like(audit(page('', '<p>No questions here.</p>'))('faq_markup'), { status: 'na' });
});

test('dates and freshness', (t) => {
  const old = audit(
    page('<meta property="article:published_time" content="2023-01-10">', '<article><p>x</p></article>'),
  );
  t.like(old('dates'), { status: 'pass', evidence: 'Machine-readable dates: article:published_time 2023-01-10.' });
  t.like(old('freshness'), {
    status: 'fail',
    evidence: 'Newest date 2023-01-10 (article:published_time), 1252 days old.',
  });
  const mid = audit(page('', '<p>Updated <time datetime="2025-03-01">March 2025</time></p>'));
  t.like(mid('freshness'), { status: 'warn', score: 0.5 });
  const none = audit(page('', '<p>Published in March 2025 by us.</p>'));
  t.like(none('dates'), { status: 'warn', score: 0.5 });
  t.like(none('freshness'), { status: 'na' });
  t.like(audit(page('', ''), { url: 'https://example.com/' })('dates'), { status: 'na' });
});

test('authority: figures, sources and quotations', (t) => {
  t.deepEqual(
    figures('Sales rose 42% to $1.2 million across 3,500 stores in 12 countries, 3x faster; in 2024 we had 7 staff.'),
    ['42%', '$1.2 million', '3,500', '12 countries', '3x'],
  );
  const html = page(
    '',
    '<main><p>See <a href="https://www.cdc.gov/x">the CDC</a> and <a href="https://blog.example.org/y">a blog</a>.</p>' +
      '<blockquote><p>Plain words win.</p></blockquote></main>',
  );
  const get = audit(html);
  t.like(get('authoritative_sources'), {
    status: 'warn',
    score: 0.5,
    evidence: '1 authoritative source linked from the content (cdc.gov), of 2 external links.',
  });
  t.like(get('quotations'), { status: 'warn', score: 0.5 });
  t.like(get('statistics'), { status: 'fail', evidence: '0 figures in 9 words (target 2).' });
});

test('content: direct answer, readability and paragraphs', (t) => {
  const answer =
    'A CRM is a shared record of every customer, deal and message, so that each person on the team sees the same facts and knows what to do next.';
  const get = audit(page('', `<main><h1>What is a CRM?</h1><p>${answer}</p></main>`));
  t.like(get('direct_answer'), { status: 'pass' });
  t.regex(get('direct_answer').evidence, /^First paragraph \(29 words, after 4 words\): "A CRM is a shared record/);
  const dense =
    'Notwithstanding the aforementioned considerations, organisational stakeholders characteristically necessitate comprehensive, interdisciplinary, methodologically sophisticated implementations of multidimensional customer-relationship infrastructures incorporating heterogeneous technological components.';
  const hard = audit(page('', `<main><p>${dense} ${dense} ${dense}</p></main>`));
  t.like(hard('readability'), { status: 'fail' });
  t.like(hard('paragraph_length'), { status: 'pass' });
  t.is(syllables('readability'), 5);
  t.is(syllables('the'), 1);
});

test('scoring: weighted categories, na left out, weights renormalised, gains add up', (t) => {
  const s = (key: SignalKey, status: Signal['status'], score: number): Signal => ({
    key,
    category: RUBRIC[key].category,
    status,
    score,
    evidence: '',
  });
  // technical: robots_ai_search (w 8) passes, https (w 3) fails, mixed_content na -> 8/11 = 72.7
  // content: word_count (w 3) 0.5, direct_answer (w 4) passes -> (1.5 + 4) / 7 = 78.6
  // structure, authority and eeat have only na signals: left out.
  const signals = [
    s('robots_ai_search', 'pass', 1),
    s('https', 'fail', 0),
    s('mixed_content', 'na', 0),
    s('word_count', 'warn', 0.5),
    s('direct_answer', 'pass', 1),
    s('title', 'na', 0),
    s('statistics', 'na', 0),
    s('dates', 'na', 0),
  ];
  const r = scoreSignals(signals);
  t.deepEqual(r.categoryScores, { technical: 72.7, structure: null, content: 78.6, authority: null, eeat: null });
  // (0.25 * 8/11 + 0.25 * 5.5/7) / 0.5 = 75.6
  t.is(r.totalScore, 75.6);
  t.is(r.signalsEvaluated, 4);
  t.is(r.signalsTotal, 8);
  // https: 100 * 0.5 * 3/11 = 13.6; word_count: 100 * 0.5 * 3/7 * 0.5 = 10.7
  t.deepEqual(
    r.recommendations.map((x) => [x.signal, x.status, x.expectedGain]),
    [
      ['https', 'fail', 13.6],
      ['word_count', 'warn', 10.7],
    ],
  );
  t.is(Math.round((r.recommendations.reduce((a, x) => a + x.expectedGain, 0) + r.totalScore) * 10) / 10, 99.9); // 100 before rounding
  t.is(r.recommendations[0].fix, RUBRIC.https.fix);
  t.is(r.recommendations[0].why, RUBRIC.https.why);
});
