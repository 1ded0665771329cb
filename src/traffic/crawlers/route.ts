// POST /api/mcp/crawler-logs?brand_id=ID (docs/api.md section 14): a log forwarder's batch. Not an
// operation of src/operations/: its body is a JSON array, which the operation surfaces (REST body
// merged with the query, MCP arguments) do not carry; it is a raw endpoint, declared in
// src/operations/raw-endpoints.ts (routing, guard, OpenAPI). It sits under /api/mcp/ so the guard of
// src/http/pipeline.ts applies to it as to every write: its own rate limit (CRAWLER_LOGS_RATE_LIMIT_*,
// in place of the API's, which forwarders would exhaust for people), then the API key; the brand
// must be the key's organization's (404 otherwise, as every brand_id).
import type Koa from 'koa';
import { badRequest } from '../../errors.ts';
import { readJsonBody } from '../../runtime/json-body.ts';
import { methodNotAllowed } from '../../runtime/router.ts';
import type { ClickHouse, Postgres } from '../../stores/index.ts';
import { brandOfCaller } from '../../tenancy/brands.ts';
import { requireIdentity } from '../../tenancy/keys.ts';
import { UUID_RE } from '../../uuid.ts';
import { siteOfBrand } from '../sites.ts';
import { judgeBatch } from './batch.ts';
import { writeHits } from './store.ts';

export const CRAWLER_LOGS_PATH = '/api/mcp/crawler-logs';
/** 1,000 entries of the longest fields allowed are about 7 MB; real batches are a tenth of that. */
export const MAX_BATCH_BYTES = 8_000_000;

export interface CrawlerLogsDeps {
  pg: Postgres;
  ch: Pick<ClickHouse, 'insertLines'>;
  now: () => Date;
}

function brandParam(value: unknown): string {
  if (value === undefined || value === '') throw badRequest('brand_id is required');
  if (typeof value !== 'string' || !UUID_RE.test(value)) throw badRequest('brand_id must be a UUID');
  return value.toLowerCase();
}

export function crawlerLogsRoute(deps: CrawlerLogsDeps): Koa.Middleware {
  return async (ctx) => {
    if (ctx.method !== 'POST') {
      methodNotAllowed(ctx, ['POST']);
      return;
    }
    const identity = requireIdentity(ctx.state);
    // The guard's key check already read the brand when it is the caller's (src/http/auth.ts).
    const brand = await brandOfCaller(
      deps.pg,
      identity.organizationId,
      brandParam(ctx.query.brand_id),
      ctx.state.brand,
    );
    const body = await readJsonBody(ctx, MAX_BATCH_BYTES);
    const { hits, dropped } = judgeBatch(body, siteOfBrand(brand), deps.now());
    if (hits.length) await writeHits(deps.ch, brand.id, hits);
    ctx.status = 202;
    ctx.body = { accepted: hits.length, dropped };
  };
}
