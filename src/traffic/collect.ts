// POST /api/collect: the beacon of /t.js (docs/api.md section 6). Public and CORS-open: the
// tracking id names the brand, no API key. Order of checks: the collect rate limit, then the body
// (size cap, JSON, zod) and the site, which answer 400 to bad input; then the visit itself, where
// bots, non-AI visits and pages off the brand's domains are accepted with 202 and dropped, and AI
// visits are buffered for ClickHouse.
import type Koa from 'koa';
import { z } from 'zod';
import { isbot } from 'isbot';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import { badRequest, validationMessage } from '../errors.ts';
import { rateLimit } from '../runtime/rate-limit.ts';
import { methodNotAllowed } from '../runtime/router.ts';
import { classifyVisit, platforms as defaultTable, type PlatformTable } from './referrers.ts';
import { visitCountry } from './country.ts';
import { pageOnSite, type SiteResolver } from './sites.ts';
import type { VisitBuffer } from './buffer.ts';

export const COLLECT_PATH = '/api/collect';
/** A beacon is three short strings; anything near this size is not one. */
export const MAX_BODY_BYTES = 8 * 1024;

const isHttpUrl = (s: string) => {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
};

const required = (name: string) => (iss: { input: unknown }) =>
  iss.input === undefined ? `${name} is required` : `${name} must be a string`;

/** The beacon's body; also its schema in the OpenAPI document (src/operations/raw-endpoints.ts). */
export const Beacon = z.object({
  site: z.string({ error: required('site') }).regex(/^[A-Za-z0-9_-]{6,64}$/, 'site must be a tracking id'),
  url: z
    .string({ error: required('url') })
    .max(4096, 'url must be at most 4096 characters')
    .refine(isHttpUrl, 'url must be an http(s) URL'),
  // document.referrer is '' when there is none.
  referrer: z
    .string({ error: 'referrer must be a string' })
    .max(2048, 'referrer must be at most 2048 characters')
    .default(''),
});

/** Crawlers are never visits; browsers always send a user agent, so its absence means a script. */
export const isCrawler = (userAgent: string | undefined) => !userAgent || isbot(userAgent);

export interface CollectDeps {
  sites: SiteResolver;
  buffer: VisitBuffer;
  limiter: RateLimiterAbstract;
  now: () => Date;
  table?: PlatformTable;
}

/** Reads the body whatever its type (sendBeacon with a string sends text/plain), capped. */
async function readBeacon(ctx: Koa.Context): Promise<unknown> {
  const tooBig = () => {
    // The rest of the body is never read: close the connection rather than leave it half-read
    // for the client to reuse.
    ctx.set('Connection', 'close');
    return badRequest(`Body exceeds ${MAX_BODY_BYTES} bytes`);
  };
  if (Number(ctx.get('content-length')) > MAX_BODY_BYTES) throw tooBig();
  const text = await new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) return void chunks.push(chunk);
      ctx.req.off('data', onData).pause();
      reject(tooBig());
    };
    ctx.req
      .on('data', onData)
      .once('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
      .once('error', reject);
  });
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest('Malformed JSON body');
  }
}

// Any site may post (the tracking id, not the origin, names the brand). Credentials are never
// used, so the wildcard is allowed. The preflight answer is cached for a day.
function setCors(ctx: Koa.Context, preflight: boolean) {
  ctx.set('Access-Control-Allow-Origin', '*');
  if (!preflight) return;
  ctx.set('Access-Control-Allow-Methods', 'POST, OPTIONS');
  ctx.set('Access-Control-Allow-Headers', 'Content-Type');
  ctx.set('Access-Control-Max-Age', '86400');
}

export function collectRoute(deps: CollectDeps): Koa.Middleware {
  const limited = rateLimit(deps.limiter);
  const table = deps.table ?? defaultTable;

  const accept = async (ctx: Koa.Context) => {
    const raw = await readBeacon(ctx);
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw badRequest('Request body must be a JSON object');
    const parsed = Beacon.safeParse(raw);
    if (!parsed.success) throw badRequest(validationMessage(parsed.error.issues));
    const beacon = parsed.data;
    const site = await deps.sites.siteOf(beacon.site);
    if (!site) throw badRequest('Unknown site');

    // From here on the answer is 202 whatever happens to the visit: the page cannot act on it.
    ctx.body = null;
    ctx.status = 202;
    if (isCrawler(ctx.get('user-agent'))) return;
    const visit = classifyVisit(beacon.url, beacon.referrer, table);
    if (!visit) return;
    // The tracking id is public: a page elsewhere naming it must not count as the brand's visit.
    if (!pageOnSite(beacon.url, site)) return;
    const iso = deps.now().toISOString();
    deps.buffer.add({
      brand_id: site.brandId,
      ts: iso.slice(0, 23).replace('T', ' '),
      day: iso.slice(0, 10),
      platform: visit.platform,
      path: visit.path,
      country: visitCountry(ctx.get('cf-ipcountry'), ctx.ip),
      referrer_host: visit.referrerHost,
    });
  };

  return async (ctx) => {
    setCors(ctx, ctx.method === 'OPTIONS');
    if (ctx.method === 'OPTIONS') {
      ctx.status = 204;
      return;
    }
    if (ctx.method !== 'POST') {
      methodNotAllowed(ctx, ['POST', 'OPTIONS']);
      return;
    }
    await limited(ctx, () => accept(ctx));
  };
}
