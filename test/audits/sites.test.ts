// Audits through the API against local test sites on loopback (ALLOW_PRIVATE_URLS=1), each with
// the status, scores and evidence expected. AUDIT_TIMEOUT_MS=20000 gives the page 10 s: time
// enough to stream the huge page on a loaded machine, and far below the slow page's 60 s. Expected scores follow docs/audits.md; the arithmetic is in comments.
import test from 'ava';
import { seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { startSite, redirect, type TestSite } from './fixtures/site.ts';
import {
  ARTICLE_PATH,
  LLMS_TXT,
  ROBOTS_ALLOW_ALL,
  ROBOTS_BLOCK_AI,
  SHELL_PAGE,
  sitemap,
  wellBuiltArticle,
} from './fixtures/pages.ts';
import { quota, runAudit, signal } from './helpers.ts';

let server: TestServer;
let good: TestSite;
let noAi: TestSite;
const pending: (() => void)[] = [];
const HUGE_PAGE = Buffer.from(`<html><body>${'<p>padding text </p>'.repeat(350_000)}</body></html>`);

test.before(async () => {
  // A loaded test machine can take seconds to answer on loopback (a first byte after 4.2 s was
  // seen, with the event loop busy with this file's other audits): response_time gives full marks
  // up to a minute here, so the expected scores do not depend on the machine (signals.test.ts
  // checks the curve).
  server = await startTestServer({ ALLOW_PRIVATE_URLS: '1', AUDIT_TIMEOUT_MS: '20000', AUDIT_FAST_MS: '60000' });
  const routes: Record<string, any> = {};
  good = await startSite(routes);
  const now = new Date();
  Object.assign(routes, {
    [ARTICLE_PATH]: { body: wellBuiltArticle(good.origin, now) },
    '/robots.txt': { type: 'text/plain', body: ROBOTS_ALLOW_ALL(good.origin) },
    '/llms.txt': { type: 'text/markdown', body: LLMS_TXT },
    '/sitemap.xml': { type: 'application/xml', body: sitemap([good.url(ARTICLE_PATH)]) },
    '/app': { body: SHELL_PAGE },
    '/old-link': redirect('/moved', 301),
    '/moved': redirect(ARTICLE_PATH),
    '/missing': { status: 404, body: '<h1>Not found</h1>' },
    '/api.json': { type: 'application/json', body: '{"ok":true}' },
    // Chunked (no Content-Length), so the cap is met while streaming; built once, not per request.
    '/huge': (_req: any, res: any) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(HUGE_PAGE);
    },
    // Answers after 60 s, long past the page's 10 s; the test site closes it at the end.
    '/slow': (_req: any, res: any) => {
      const timer = setTimeout(() => res.end('<p>late</p>'), 60_000);
      pending.push(() => clearTimeout(timer));
    },
  });
  const noAiRoutes: Record<string, any> = {};
  noAi = await startSite(noAiRoutes);
  Object.assign(noAiRoutes, {
    [ARTICLE_PATH]: { body: wellBuiltArticle(noAi.origin, now) },
    '/robots.txt': { type: 'text/plain', body: ROBOTS_BLOCK_AI },
    '/llms.txt': { type: 'text/markdown', body: LLMS_TXT },
    '/sitemap.xml': { type: 'application/xml', body: sitemap([noAi.url(ARTICLE_PATH)]) },
  });
});

test.after.always(async () => {
  for (const p of pending) p();
  await good?.close();
  await noAi?.close();
  await server?.stop();
});

test('a well-built article completes with every applicable signal passing but https', async (t) => {
  const tenant = await seedTenant(server, undefined, 'starter');
  const audit = await runAudit(t, server, tenant, good.url(ARTICLE_PATH));
  t.is(audit.status, 'completed');
  t.is(audit.error, null);
  t.is(audit.finalUrl, good.url(ARTICLE_PATH));
  t.is(audit.signalsTotal, 52);
  t.is(audit.signalsEvaluated, 51); // mixed_content is na on plain HTTP
  const notPassing = audit.signals.filter((s: any) => s.status !== 'pass').map((s: any) => `${s.key}:${s.status}`);
  t.deepEqual(notPassing, ['https:fail', 'mixed_content:na']);
  // technical: 48 weight - 2 (mixed_content na) = 46 evaluated, https (3) fails: 43/46 = 93.5.
  // total: 0.25 * 93.48 + 0.75 * 100 = 98.4
  t.deepEqual(audit.categoryScores, { technical: 93.5, structure: 100, content: 100, authority: 100, eeat: 100 });
  t.is(audit.totalScore, 98.4);
  // The one recommendation is worth exactly the missing points: 100 * 0.25 * 3/46 = 1.6.
  t.deepEqual(
    audit.recommendations.map((r: any) => [r.signal, r.status, r.expectedGain]),
    [['https', 'fail', 1.6]],
  );
  t.regex(audit.recommendations[0].fix, /HTTPS/);
  t.is(
    signal(audit, 'robots_ai_search').evidence,
    'Allowed: OAI-SearchBot, ChatGPT-User, Claude-SearchBot, PerplexityBot.',
  );
  t.regex(
    signal(audit, 'server_rendered_text').evidence,
    /^\d{3} words of text in the HTML as served \(0 script files\)\.$/,
  );
  t.is(
    signal(audit, 'llms_txt').evidence,
    '/llms.txt found (253 bytes): H1 "Acme", a > summary, 1 ## section, 2 Markdown links.',
  );
  t.is(
    signal(audit, 'sitemap').evidence,
    `Sitemap at ${good.origin}/sitemap.xml (declared in robots.txt) lists 1 URL, including this page.`,
  );
  t.is(
    signal(audit, 'json_ld_type_fit').evidence,
    'Article fits this article page, with headline, author, datePublished, image.',
  );
  t.is(
    signal(audit, 'authoritative_sources').evidence,
    '3 authoritative sources linked from the content (census.gov, en.wikipedia.org, reuters.com), of 3 external links.',
  );
  t.is(
    signal(audit, 'author_byline').evidence,
    `Byline "By Jane Doe, sales operations lead. Updated ${new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10)}." with a link to the author.`,
  );
  t.is(signal(audit, 'https').evidence, `Served over plain HTTP (${good.origin}).`);
  t.truthy(audit.completedAt);
  // The audit read the page and the three site files with its own User-Agent.
  const seen = good.requests.filter((r) => r.includes('AnswerscopeAudit/0.1')).map((r) => r.split(' ')[1]);
  for (const p of [ARTICLE_PATH, '/robots.txt', '/llms.txt', '/sitemap.xml']) t.true(seen.includes(p), p);
  t.deepEqual(await quota(server, tenant), { used: 1, limit: 100, remaining: 99 });
});

test('a client-only shell completes with a low score led by its missing content', async (t) => {
  const tenant = await seedTenant(server);
  const audit = await runAudit(t, server, tenant, good.url('/app'));
  t.is(audit.status, 'completed');
  t.like(signal(audit, 'server_rendered_text'), {
    status: 'fail',
    score: 0,
    evidence:
      'Only 0 words of text in the HTML as served (1 script file, an empty <div id="root">): the content is built in the browser by JavaScript, which most AI crawlers do not run.',
  });
  t.like(signal(audit, 'word_count'), {
    status: 'fail',
    evidence: '0 words in the main content (target 300 for a page).',
  });
  t.like(signal(audit, 'sitemap'), { status: 'warn', score: 0.6 });
  // technical: passes 8+2+3+1+5+1 (robots, meta, llms) + 2+1+1+1+1+1 (speed, redirects, viewport, lang,
  //   charset, weight) = 27, sitemap 0.6 * 2 = 1.2: 28.2/46 = 61.3
  // structure: only the title (3) passes of 20 evaluated weight (alt, JSON-LD validity/fit, FAQ na): 15
  // content: word_count, direct_answer, paragraph_length fail, the rest na: 0
  // authority: quotations warns at 0.25 of 11: 2.3; eeat: 0
  // total: 0.25 * 61.30 + 0.2 * 15 + 0.15 * 2.27 = 18.7
  t.deepEqual(audit.categoryScores, { technical: 61.3, structure: 15, content: 0, authority: 2.3, eeat: 0 });
  t.is(audit.totalScore, 18.7);
  t.is(audit.signalsEvaluated, 42);
  // Largest gain first: direct_answer is 100 * 0.25 * 4/9 = 11.1 points.
  t.deepEqual(
    audit.recommendations.slice(0, 2).map((r: any) => [r.signal, r.expectedGain]),
    [
      ['direct_answer', 11.1],
      ['word_count', 8.3],
    ],
  );
  const gains = audit.recommendations.map((r: any) => r.expectedGain);
  t.deepEqual(
    gains,
    [...gains].sort((a: number, b: number) => b - a),
  );
  t.true(audit.recommendations.some((r: any) => r.signal === 'server_rendered_text' && r.expectedGain === 4.3));
});

test('a site whose robots.txt blocks AI crawlers loses the robots signals, search engines stay allowed', async (t) => {
  const tenant = await seedTenant(server);
  const audit = await runAudit(t, server, tenant, noAi.url(ARTICLE_PATH));
  t.is(audit.status, 'completed');
  t.like(signal(audit, 'robots_ai_search'), {
    status: 'fail',
    score: 0,
    evidence:
      'Blocked by robots.txt: OAI-SearchBot (line 15), ChatGPT-User (line 15), Claude-SearchBot (line 15), PerplexityBot (line 15). These bots cannot fetch the page to cite it.',
  });
  t.like(signal(audit, 'robots_ai_training'), { status: 'fail', score: 0 });
  t.regex(
    signal(audit, 'robots_ai_training').evidence,
    /^Blocked by robots.txt: GPTBot \(line 15\), ClaudeBot \(line 15\), Google-Extended \(line 15\), CCBot \(line 15\), Applebot-Extended \(line 15\), Bytespider \(line 15\), meta-externalagent \(line 15\)\./,
  );
  t.like(signal(audit, 'robots_search_engines'), { status: 'pass', evidence: 'Allowed: Googlebot, Bingbot.' });
  // No Sitemap line: robots_txt 0.8 and the sitemap (found at /sitemap.xml) 0.8.
  t.like(signal(audit, 'robots_txt'), { status: 'warn', score: 0.8 });
  t.like(signal(audit, 'sitemap'), { status: 'warn', score: 0.8 });
  // technical: 46 - 8 - 2 (robots) - 3 (https) - 0.2 (robots_txt) - 0.4 (sitemap) = 32.4/46 = 70.4
  // total: 0.25 * 70.43 + 0.75 * 100 = 92.6
  t.is(audit.categoryScores.technical, 70.4);
  t.is(audit.totalScore, 92.6);
  t.deepEqual(audit.recommendations[0], {
    signal: 'robots_ai_search',
    category: 'technical',
    status: 'fail',
    expectedGain: 4.3,
    fix: 'Allow the AI search and answer crawlers (OAI-SearchBot, ChatGPT-User, Claude-SearchBot, PerplexityBot) in robots.txt.',
    why: 'These bots fetch pages to answer and cite live questions; a blocked page cannot be cited in ChatGPT search, Claude or Perplexity answers.',
  });
});

test('redirects are followed and reported', async (t) => {
  const tenant = await seedTenant(server);
  const audit = await runAudit(t, server, tenant, good.url('/old-link'));
  t.is(audit.status, 'completed');
  t.is(audit.url, good.url('/old-link'));
  t.is(audit.finalUrl, good.url(ARTICLE_PATH));
  t.like(signal(audit, 'redirects'), {
    status: 'warn',
    score: 0.5,
    evidence: `2 redirects: ${good.url('/old-link')} -> ${good.url('/moved')} -> ${good.url(ARTICLE_PATH)}.`,
  });
});

/** A failed audit: its error, no scores, and its quota unit given back. */
async function failedAudit(t: any, url: string, error: string | RegExp) {
  const tenant = await seedTenant(server, undefined, 'starter');
  const audit = await runAudit(t, server, tenant, url);
  t.is(audit.status, 'failed');
  if (typeof error === 'string') t.is(audit.error, error);
  else t.regex(audit.error, error);
  t.like(audit, {
    totalScore: null,
    categoryScores: null,
    signalsEvaluated: null,
    signalsTotal: null,
    finalUrl: null,
    signals: [],
    recommendations: [],
  });
  t.truthy(audit.completedAt);
  t.deepEqual(await quota(server, tenant), { used: 0, limit: 100, remaining: 100 });
  return audit;
}

test('a 404 fails with the HTTP status', async (t) => {
  await failedAudit(t, good.url('/missing'), `The page answered HTTP 404 Not Found (${good.url('/missing')})`);
});

test('a slow page fails with a timeout', async (t) => {
  // The page answers after 60 s: the audit failing with the timeout is the fetch giving up first.
  await failedAudit(t, good.url('/slow'), `Timed out after 10 s fetching ${good.url('/slow')}`);
});

// Serial: streaming 5 MB within the page's 10 s must not wait behind the file's other audits.
test.serial('a huge page fails with the size cap', async (t) => {
  await failedAudit(t, good.url('/huge'), 'The response is larger than 5 MB');
});

test('a non-HTML answer fails', async (t) => {
  await failedAudit(t, good.url('/api.json'), 'The page is not HTML (Content-Type: application/json)');
});

test('an unknown host fails with a DNS error', async (t) => {
  await failedAudit(
    t,
    'http://no-such-host.invalid/page',
    /^DNS lookup failed for no-such-host\.invalid \((ENOTFOUND|EAI_AGAIN)\)$/,
  );
});

test('a closed port fails with a connection error', async (t) => {
  await failedAudit(t, 'http://127.0.0.1:9/', 'Could not connect to 127.0.0.1:9 (ECONNREFUSED)');
});
