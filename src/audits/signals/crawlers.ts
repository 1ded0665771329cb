// Technical access, part 1: what crawlers are allowed to read (robots.txt per crawler, robots
// directives), and the files that guide them (llms.txt, sitemap).
import { looksLikeHtml, robotsOf } from '../site.ts';
import { fail, graded, pass, plural, warn, type AuditInput, type Signal } from './types.ts';
import type { SignalKey } from '../rubric.ts';

/** Bots that fetch pages to answer and cite a live question. */
export const AI_SEARCH_BOTS = ['OAI-SearchBot', 'ChatGPT-User', 'Claude-SearchBot', 'PerplexityBot'];
/** Bots (or robots.txt control tokens) that collect training data. */
export const AI_TRAINING_BOTS = [
  'GPTBot',
  'ClaudeBot',
  'Google-Extended',
  'CCBot',
  'Applebot-Extended',
  'Bytespider',
  'meta-externalagent',
];
/** Classic search engines whose indexes feed AI Overviews, AI Mode and Copilot. */
export const SEARCH_ENGINE_BOTS = ['Googlebot', 'Bingbot'];

function robotsRules(key: SignalKey, bots: string[], input: AuditInput, note = ''): Signal {
  const { robots } = input.site;
  const page = input.page.url.href;
  if (robots.status === null || robots.status >= 500) {
    const why = robots.status === null ? robots.error : `HTTP ${robots.status}`;
    return warn(
      key,
      0.5,
      `robots.txt could not be read (${why}); crawlers that follow RFC 9309 treat the whole site as disallowed ` +
        `until it answers.`,
    );
  }
  const parsed = robotsOf(input.site, page);
  if (!parsed) {
    const seen = looksLikeHtml(robots) ? 'answers with an HTML page' : `answers HTTP ${robots.status}`;
    return pass(key, `/robots.txt ${seen}, so there are no rules: ${bots.join(', ')} may all fetch this page.`);
  }
  const allowed: string[] = [];
  const blocked: string[] = [];
  for (const bot of bots) {
    if (parsed.isAllowed(page, bot) === false) {
      const line = parsed.getMatchingLineNumber(page, bot);
      blocked.push(line > 0 ? `${bot} (line ${line})` : bot);
    } else {
      allowed.push(bot);
    }
  }
  const parts = [
    allowed.length ? `Allowed: ${allowed.join(', ')}.` : '',
    blocked.length ? `Blocked by robots.txt: ${blocked.join(', ')}.` : '',
    blocked.length ? note : '',
  ].filter(Boolean);
  return graded(key, allowed.length / bots.length, parts.join(' '));
}

function robotsTxt(input: AuditInput): Signal {
  const { robots } = input.site;
  if (robots.status === null) return fail('robots_txt', `/robots.txt could not be fetched: ${robots.error}.`);
  if (robots.status >= 500)
    return fail(
      'robots_txt',
      `/robots.txt answers HTTP ${robots.status}: crawlers may treat the site as fully disallowed.`,
    );
  if (robots.status >= 400)
    return warn(
      'robots_txt',
      0.5,
      `No /robots.txt (HTTP ${robots.status}): every crawler is allowed, but there is no Sitemap pointer.`,
    );
  if (looksLikeHtml(robots))
    return warn('robots_txt', 0.5, '/robots.txt answers with an HTML page instead of plain-text rules.');
  const lines = robots.body.split(/\r?\n/);
  const groups = lines.filter((l) => /^\s*user-agent\s*:/i.test(l)).length;
  const sitemaps = input.site.sitemapsDeclared.length;
  const summary =
    `/robots.txt found (${plural(lines.length, 'line')}, ${plural(groups, 'user-agent line')}, ` +
    `${plural(sitemaps, 'Sitemap line')}).`;
  if (groups === 0)
    return warn('robots_txt', 0.5, `${summary} It has no User-agent groups, so its rules apply to nobody.`);
  return sitemaps ? pass('robots_txt', summary) : warn('robots_txt', 0.8, `${summary} It does not point to a sitemap.`);
}

function metaRobots(input: AuditInput): Signal {
  const { $ } = input.page;
  const found: string[] = [];
  $('meta[name]').each((_, el) => {
    const name = ($(el).attr('name') ?? '').toLowerCase();
    if (['robots', 'googlebot', 'bingbot', 'gptbot', 'oai-searchbot'].includes(name))
      found.push(`meta ${name}="${$(el).attr('content') ?? ''}"`);
  });
  const header = input.fetch.headers['x-robots-tag'];
  for (const h of [header].flat()) if (h) found.push(`X-Robots-Tag: ${h}`);
  const text = found.join(' ').toLowerCase();
  if (/\bnoindex\b|\bnone\b/.test(text))
    return fail('meta_robots', `${found.join('; ')}: the page asks not to be indexed.`);
  if (/\bnosnippet\b|max-snippet\s*:\s*0\b/.test(text))
    return warn('meta_robots', 0.3, `${found.join('; ')}: engines may index the page but not quote it.`);
  if (/\bnoai\b|\bnoimageai\b/.test(text))
    return warn('meta_robots', 0.7, `${found.join('; ')}: non-standard AI opt-out directives.`);
  return pass(
    'meta_robots',
    found.length
      ? `No restricting directive (${found.join('; ')}).`
      : 'No robots meta tag or X-Robots-Tag header: indexing and snippets allowed.',
  );
}

function llmsTxt(input: AuditInput): Signal {
  const f = input.site.llms;
  if (f.status === null)
    return warn(
      'llms_txt',
      0.25,
      `/llms.txt could not be fetched (${f.error}). It is optional and read by few AI tools today.`,
    );
  if (f.status !== 200 || looksLikeHtml(f)) {
    const seen = f.status === 200 ? 'answers with an HTML page' : `answers HTTP ${f.status}`;
    return warn('llms_txt', 0.25, `No /llms.txt (${seen}). It is optional and read by few AI tools today.`);
  }
  const lines = f.body.split(/\r?\n/).map((l) => l.trimEnd());
  const firstLine = lines.find((l) => l.trim() !== '') ?? '';
  const h1 = /^#\s+\S/.test(firstLine);
  const summary = lines.some((l) => /^>\s*\S/.test(l));
  const sections = lines.filter((l) => /^##\s+\S/.test(l)).length;
  const links = lines.filter((l) => /^\s*[-*]\s*\[[^\]]+\]\([^)\s]+\)/.test(l)).length;
  const score = (h1 ? 0.4 : 0) + (summary ? 0.2 : 0) + (sections > 0 && links > 0 ? 0.4 : 0);
  const seen =
    `/llms.txt found (${f.body.length} bytes): ` +
    `${h1 ? `H1 ${JSON.stringify(firstLine.slice(2).trim())}` : 'no H1 title on the first line'}, ` +
    `${summary ? 'a > summary' : 'no > summary'}, ${plural(sections, '## section')}, ` +
    `${plural(links, 'Markdown link')}.`;
  return score >= 1 ? pass('llms_txt', seen) : warn('llms_txt', Math.max(score, 0.3), seen);
}

const normalise = (u: string) => {
  try {
    const x = new URL(u.trim());
    return `${x.hostname.replace(/^www\./, '')}${x.pathname.replace(/\/+$/, '')}${x.search}`;
  } catch {
    return u.trim();
  }
};

function sitemap(input: AuditInput): Signal {
  const s = input.site.sitemap;
  const where = s.source === 'robots' ? `${s.url} (declared in robots.txt)` : s.url;
  if (s.status !== 200 || looksLikeHtml(s)) {
    const seen = s.status === null ? s.error : s.status === 200 ? 'an HTML page' : `HTTP ${s.status}`;
    return s.source === 'robots'
      ? warn('sitemap', 0.3, `The sitemap ${where} could not be read: ${seen}.`)
      : fail('sitemap', `No sitemap: robots.txt declares none and ${where} answers ${seen}.`);
  }
  const locs = [...s.body.matchAll(/<loc>\s*([^<]+?)\s*<\/loc>/gi)].map((m) => m[1].replace(/&amp;/g, '&'));
  const pointer = s.source === 'robots' ? '' : ' robots.txt does not point to it.';
  if (/<sitemapindex[\s>]/i.test(s.body)) {
    return graded(
      'sitemap',
      pointer ? 0.8 : 1,
      `Sitemap index at ${where} lists ${plural(locs.length, 'sitemap')} (child sitemaps not read).${pointer}`,
    );
  }
  if (!/<urlset[\s>]/i.test(s.body))
    return warn('sitemap', 0.3, `${where} is not an XML sitemap (no <urlset> or <sitemapindex>).`);
  const listed = locs.map(normalise).includes(normalise(input.page.url.href));
  const seen =
    `Sitemap at ${where} lists ${plural(locs.length, 'URL')}, ` +
    `${listed ? 'including this page' : 'but not this page'}.${pointer}`;
  return graded('sitemap', (listed ? 1 : 0.6) - (pointer ? 0.2 : 0), seen);
}

export function crawlerSignals(input: AuditInput): Signal[] {
  return [
    robotsRules('robots_ai_search', AI_SEARCH_BOTS, input, 'These bots cannot fetch the page to cite it.'),
    robotsRules(
      'robots_ai_training',
      AI_TRAINING_BOTS,
      input,
      'Blocking training crawlers is a legitimate choice; it keeps the page out of future model knowledge.',
    ),
    robotsRules(
      'robots_search_engines',
      SEARCH_ENGINE_BOTS,
      input,
      'AI Overviews, AI Mode and Copilot answer from these indexes.',
    ),
    robotsTxt(input),
    metaRobots(input),
    llmsTxt(input),
    sitemap(input),
  ];
}
