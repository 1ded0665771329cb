// GET /t.js: the tracking script, built once at start-up from t.template.js and the platform table
// and served with a strong ETag, so browsers and CDNs revalidate cheaply (304) instead of refetching.
import fs from 'node:fs';
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { methodNotAllowed } from '../runtime/router.ts';
import { platformOfHost, platforms as defaultTable, type PlatformTable } from './referrers.ts';

const TEMPLATE = fs.readFileSync(new URL('./t.template.js', import.meta.url), 'utf8');

// An hour: sites pick up a changed platform list the same day, and revalidation is a 304.
const CACHE_CONTROL = 'public, max-age=3600, stale-while-revalidate=86400';

/** Compacts the template (drops comment lines, trims and joins the rest) and fills in the lists. */
export function buildScript(t: PlatformTable = defaultTable): string {
  const compact = TEMPLATE.split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('//'))
    .join('')
    // Spaces next to punctuation carry no meaning in this template (no string in it holds one).
    .replace(/ *([{}()[\]=,;:+|!<>&?]) */g, '$1');
  // utm_source values that are platform hosts are caught by the host check; list only the others.
  const utm = [...t.utmSources.keys()].filter((u) => !platformOfHost(u, t));
  return compact.replace('__HOSTS__', JSON.stringify([...t.hosts.keys()])).replace('__UTM__', JSON.stringify(utm));
}

export interface ServedScript {
  body: string;
  etag: string;
  bytes: number;
}

export function serveScript(t: PlatformTable = defaultTable): ServedScript {
  const body = buildScript(t);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
  return { body, etag, bytes: Buffer.byteLength(body) };
}

export function scriptRoute(script: ServedScript = serveScript()): Koa.Middleware {
  return async (ctx) => {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      methodNotAllowed(ctx, ['GET', 'HEAD']);
      return;
    }
    ctx.set('Cache-Control', CACHE_CONTROL);
    ctx.set('ETag', script.etag);
    // Sites that isolate themselves (COEP) may still load it.
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin');
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.body = script.body;
  };
}
