// Decides whether a page view came from an AI platform, from the table in data/ai-platforms.json
// (documented in data/README.md). The same table feeds the pre-check inside /t.js, but this is the
// authoritative decision: the script is public and anyone can post a beacon.
//
// Hosts match exactly or as a parent domain (www.perplexity.ai is perplexity.ai), by whole DNS
// labels, never by substring: notchatgpt.com and claude.example.workers.dev are not AI platforms.
import { z } from 'zod';
import table from './data/ai-platforms.json' with { type: 'json' };

const HOST_RE = /^(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const SLUG_RE = /^[a-z][a-z0-9_]{1,31}$/;

const Table = z.object({
  platforms: z
    .array(
      z.object({
        platform: z.string().regex(SLUG_RE),
        name: z.string().min(1),
        hosts: z.array(z.string().regex(HOST_RE)).min(1),
        utm_sources: z.array(
          z
            .string()
            .min(1)
            .regex(/^[a-z0-9._-]+$/),
        ),
      }),
    )
    .min(1),
});

export interface PlatformTable {
  /** Host (lower case, no `www.`) -> platform slug. */
  hosts: Map<string, string>;
  /** Exact `utm_source` value (lower case) -> platform slug. */
  utmSources: Map<string, string>;
}

/** Validates the table and indexes it; a host or utm value claimed twice is a mistake in the file. */
export function buildTable(raw: unknown): PlatformTable {
  const parsed = Table.parse(raw);
  const hosts = new Map<string, string>();
  const utmSources = new Map<string, string>();
  for (const p of parsed.platforms) {
    for (const h of p.hosts) {
      if (hosts.has(h)) throw new Error(`ai-platforms.json: host ${h} is listed twice`);
      hosts.set(h, p.platform);
    }
    for (const u of p.utm_sources) {
      if (utmSources.has(u)) throw new Error(`ai-platforms.json: utm_source ${u} is listed twice`);
      utmSources.set(u, p.platform);
    }
  }
  return { hosts, utmSources };
}

export const platforms: PlatformTable = buildTable(table);

/** The platform whose host is `host` or a parent domain of it, walking up whole labels. */
export function platformOfHost(host: string, t: PlatformTable = platforms): string | undefined {
  let h = host.trim().toLowerCase().replace(/\.$/, '');
  if (!h) return undefined;
  for (;;) {
    const hit = t.hosts.get(h);
    if (hit) return hit;
    const dot = h.indexOf('.');
    if (dot < 0) return undefined;
    h = h.slice(dot + 1);
  }
}

/** The platform a `utm_source` value names: an exact listed value, or a host of a platform. */
export function platformOfUtm(value: string, t: PlatformTable = platforms): string | undefined {
  const v = value.trim().toLowerCase();
  if (!v) return undefined;
  return t.utmSources.get(v) ?? (HOST_RE.test(v) ? platformOfHost(v, t) : undefined);
}

export interface AiVisit {
  platform: string;
  /** Host of the referrer ('' when there was none or it did not parse). */
  referrerHost: string;
  /** Page path, never the query string or fragment (they may hold personal data). */
  path: string;
}

const MAX_PATH = 1024;

function parseUrl(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

/**
 * Classifies a beacon: the referrer's host first, then the page's `utm_source`. Returns undefined
 * for a visit that is not from an AI platform (it is dropped).
 */
export function classifyVisit(pageUrl: string, referrer: string, t: PlatformTable = platforms): AiVisit | undefined {
  const page = parseUrl(pageUrl);
  if (!page || (page.protocol !== 'http:' && page.protocol !== 'https:')) return undefined;
  const ref = referrer ? parseUrl(referrer) : undefined;
  const referrerHost = ref && (ref.protocol === 'http:' || ref.protocol === 'https:') ? ref.hostname.toLowerCase() : '';
  const platform =
    (referrerHost && platformOfHost(referrerHost, t)) || platformOfUtm(page.searchParams.get('utm_source') ?? '', t);
  if (!platform) return undefined;
  return { platform, referrerHost, path: (page.pathname || '/').slice(0, MAX_PATH) };
}
