// URL normalisation for citations (docs/api.md section 2, docs/analysis.md "URL normalisation").
//
// Two citations are "the same" when their normalised URLs are equal, so everything that does not
// change which page is meant is removed: case of scheme and host, a leading `www.`, default ports,
// credentials, the fragment, tracking parameters, the order of parameters and a trailing slash.
// Everything that can change the page is kept: path case, and every other query parameter
// (two YouTube `watch?v=` URLs stay two URLs).

/**
 * Query parameters that only say where a click came from. Matching is case-insensitive;
 * any parameter starting with `utm_` is dropped too. Add a name here to stop it splitting one page
 * into several citations; never add a name that selects content (v, id, p, q, page, ...).
 */
const TRACKING_PARAMS: ReadonlySet<string> = new Set([
  // Ad-click ids: Meta, Google (incl. iOS gbraid/wbraid), DoubleClick, Microsoft, Yandex, X, TikTok, LinkedIn
  'fbclid',
  'gclid',
  'gclsrc',
  'dclid',
  'gbraid',
  'wbraid',
  'msclkid',
  'yclid',
  'twclid',
  'ttclid',
  'li_fat_id',
  // Mailchimp, HubSpot, Marketo, Vero, Olytics, Adobe
  'mc_cid',
  'mc_eid',
  '_hsenc',
  '_hsmi',
  '__hstc',
  '__hssc',
  '__hsfp',
  'hsctatracking',
  'mkt_tok',
  'vero_id',
  'vero_conv',
  'oly_anon_id',
  'oly_enc_id',
  's_cid',
  // Referrer markers and share ids (Instagram igshid/igsh, Spotify and YouTube share `si`)
  'ref',
  'ref_src',
  'ref_url',
  'referrer',
  'igshid',
  'igsh',
  'si',
  // Google Shopping / Search Console result ids and Google Analytics cross-domain linker
  'srsltid',
  '_ga',
  '_gl',
]);

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// "acme.com/page", "www.acme.com": a host with a dot, then an optional port and path.
const LOOKS_LIKE_HOST = /^[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+(?::\d+)?(?:[/?#]|$)/u;

/** A parsed http(s) URL, or null. Scheme-less inputs that start with a host are read as https. */
function parseHttp(raw: string): URL | null {
  if (typeof raw !== 'string') return null;
  let s = raw.trim();
  if (s === '') return null;
  if (s.startsWith('//')) s = `https:${s}`;
  else if (!HAS_SCHEME.test(s)) {
    if (!LOOKS_LIKE_HOST.test(s)) return null;
    s = `https://${s}`;
  }
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  if (u.hostname === '') return null;
  return u;
}

/** Host lower-cased (URL already does it; IDNs come out as punycode), no trailing dot, no leading `www.`. */
export function hostToDomain(hostname: string): string {
  let h = hostname.toLowerCase();
  if (h.endsWith('.')) h = h.slice(0, -1);
  if (h.startsWith('www.')) h = h.slice(4);
  return h;
}

function isTrackingParam(name: string): boolean {
  const n = name.toLowerCase();
  return n.startsWith('utm_') || TRACKING_PARAMS.has(n);
}

/** The query without tracking parameters, remaining parameters sorted by name (stable). Keeps their encoding. */
function cleanQuery(search: string): string {
  if (search.length <= 1) return '';
  const parts = search.slice(1).split('&');
  // Fast path: nothing to drop and already in order, so the query stays as written.
  let clean = true;
  let prev = '';
  const keys: string[] = new Array(parts.length);
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part === '') {
      clean = false;
      keys[i] = '';
      continue;
    }
    const eq = part.indexOf('=');
    let key = eq < 0 ? part : part.slice(0, eq);
    if (key.includes('%') || key.includes('+')) {
      try {
        key = decodeURIComponent(key.replace(/\+/g, ' '));
      } catch {
        /* malformed escape: compare the raw name */
      }
    }
    keys[i] = key;
    if (clean && (isTrackingParam(key) || key < prev)) clean = false;
    prev = key;
  }
  if (clean) return search;
  const kept: { key: string; part: string }[] = [];
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] === '' || isTrackingParam(keys[i])) continue;
    kept.push({ key: keys[i], part: parts[i] });
  }
  if (kept.length === 0) return '';
  // Array.prototype.sort is stable: repeated keys keep their relative order (a=2&a=1 != a=1&a=2).
  kept.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return `?${kept.map((k) => k.part).join('&')}`;
}

export interface ParsedCitationUrl {
  readonly url: string; // normalised
  readonly domain: string; // host, lower-case, no leading www.
  readonly path: string; // normalised path ('/' for the root)
  readonly query: string; // normalised query, '' or starting with '?'
  /**
   * Scratch slot for what a caller derives from this URL (analysis keeps the article type here).
   * Parsed URLs are shared through the cache, so a page cited again finds it already set.
   */
  memo?: unknown;
}

// Engines cite the same pages over and over, so parsed URLs are memoised. The cache is bounded
// and simply emptied when full: cheap, and the hot URLs come back at once.
const PARSE_CACHE_MAX = 50_000;
const parseCache = new Map<string, ParsedCitationUrl | null>();

/**
 * Normalises once and returns the parts analysis needs, so it never parses a URL twice.
 * The result is shared (memoised): treat it as read-only, except for its `memo` slot.
 */
export function parseCitationUrl(raw: string): ParsedCitationUrl | null {
  const hit = parseCache.get(raw);
  if (hit !== undefined) return hit;
  const parsed = parseUncached(raw);
  if (parseCache.size >= PARSE_CACHE_MAX) parseCache.clear();
  parseCache.set(raw, parsed);
  return parsed;
}

function parseUncached(raw: string): ParsedCitationUrl | null {
  const u = parseHttp(raw);
  if (!u) return null;
  const domain = hostToDomain(u.hostname);
  if (domain === '') return null;
  const port = u.port && u.port !== DEFAULT_PORTS[u.protocol] ? `:${u.port}` : '';
  let path = u.pathname || '/';
  // A trailing slash on a non-root path is dropped: /blog/ and /blog are nearly always the same
  // page, and engines cite both spellings. The root keeps its slash (https://acme.com/).
  if (path.length > 1 && path.endsWith('/')) path = path.replace(/\/+$/, '') || '/';
  const query = cleanQuery(u.search);
  // Credentials and the fragment are dropped: neither selects a different page. The URL is joined
  // as one flat string, not a tree of its pieces: the cache keeps it for many answers.
  const url = [u.protocol, '//', domain, port, path, query].join('');
  return { url, domain, path, query, memo: undefined };
}

/**
 * The normalised form of a URL, or null when it cannot be parsed or is not http(s).
 * e.g. `HTTPS://WWW.Acme.com:443/Blog/?utm_source=x&b=2&a=1#top` -> `https://acme.com/Blog?a=1&b=2`.
 */
export function normaliseUrl(raw: string): string | null {
  return parseCitationUrl(raw)?.url ?? null;
}

/**
 * The domain of a URL: its host lower-cased without a leading `www.`. Also accepts a bare host
 * ("WWW.Acme.com"). Returns '' when nothing host-like can be read.
 */
export function domainOf(url: string): string {
  const u = parseHttp(url);
  return u ? hostToDomain(u.hostname) : '';
}

/**
 * An entity domain as configured ("Acme.com", "www.acme.com", "https://acme.com/") reduced to a
 * bare domain, or '' when it is not usable.
 */
export function normaliseDomain(d: string): string {
  if (typeof d !== 'string') return '';
  const s = d.trim();
  if (s === '') return '';
  const u = parseHttp(s);
  return u ? hostToDomain(u.hostname) : '';
}

/** The domain and each parent domain, most specific first: a.b.acme.com, b.acme.com, acme.com, com. */
export function domainSuffixes(domain: string): string[] {
  const out = [domain];
  let i = domain.indexOf('.');
  while (i >= 0) {
    out.push(domain.slice(i + 1));
    i = domain.indexOf('.', i + 1);
  }
  return out;
}
