// GET /api/mcp/answers-export (docs/api.md section 11): every answer of the brand in range, as a
// file: JSON Lines (default) or Parquet (`format=parquet`). A raw endpoint (src/operations/
// raw-endpoints.ts), not an operation: its answer is a stream of bytes, which neither a JSON
// result nor an MCP tool carries. Its parameters are the operations' own (params.ts), checked with
// the same messages; the brand must be the key's organization's (404 otherwise). The file is the
// command line's (analytics/answer-file.ts), streamed: one page in memory, however many answers.
import type Koa from 'koa';
import { badRequest, validationMessage } from '../errors.ts';
import type { Stores } from '../stores/index.ts';
import { brandEntities, brandOfCaller } from '../tenancy/brands.ts';
import { requireIdentity } from '../tenancy/keys.ts';
import { methodNotAllowed } from '../runtime/router.ts';
import { AnswersExportParams } from '../operations/raw-endpoints.ts';
import { crossCheck } from '../operations/run.ts';
import { generationOf } from '../operations/analytics-filters.ts';
import { ANSWER_FILE_TYPES, answerFile } from '../analytics/answer-file.ts';

export function answersExportRoute(deps: { stores: Stores }): Koa.Middleware {
  const { pg, ch } = deps.stores;
  return async (ctx) => {
    if (ctx.method !== 'GET') {
      methodNotAllowed(ctx, ['GET']);
      return;
    }
    const identity = requireIdentity(ctx.state);
    const parsed = AnswersExportParams.safeParse(ctx.query);
    if (!parsed.success) throw badRequest(validationMessage(parsed.error.issues));
    const p = parsed.data;
    crossCheck(p);
    // The guard's key check already read the brand when it is the caller's (src/http/auth.ts).
    const brand = await brandOfCaller(pg, identity.organizationId, p.brand_id, ctx.state.brand);
    const filters = {
      brandId: brand.id,
      generation: await generationOf(pg, brand, p.source),
      from: p.date_from,
      to: p.date_to,
      source: p.source,
    };
    const entities = await brandEntities(pg, brand);
    const format = p.format ?? 'jsonl';
    // The organization's line in front of ClickHouse, as an operation's reads take; a client that
    // has gone drops its reads still waiting.
    const gone = () => ctx.req.destroyed;
    const lane = ch.forCaller(identity.organizationId ?? `user ${identity.userId}`, gone);
    const file = await answerFile(lane, pg, filters, { entities }, format);
    ctx.status = 200;
    ctx.type = ANSWER_FILE_TYPES[format];
    ctx.attachment(`answers-${brand.id}.${format}`);
    // Koa pipes the stream to the response with its backpressure, and destroys it if the client goes.
    ctx.body = file;
  };
}
