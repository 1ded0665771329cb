// An API operation is declared once; the REST API, the Metrics API, the MCP server and the OpenAPI
// document are all generated from the list of declarations, so the surfaces cannot drift apart.
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { Stores } from '../stores/index.ts';
import type { Config } from '../config.ts';
import type { BrandRecord } from '../tenancy/brands.ts';
import type { QuotaKind } from '../tenancy/quotas.ts';
import type { Identity } from '../tenancy/keys.ts';

export interface Ctx {
  identity: Identity;
  stores: Stores;
  config: Config;
  log: Logger;
  now(): Date;
  /** The brand if it belongs to the caller's organization; else throws 404 `Brand not found`. */
  brand(id: string): Promise<BrandRecord>;
  /**
   * Memoises an analytics result under the brand's data version (analytics/cache.ts): the result
   * cached under the brand and `key`. `until`: the last instant the figures cover, when
   * bounded; figures of a range that ended before today survive an ingest of today's answers.
   */
  cached<T>(brand: BrandRecord, key: unknown[], compute: () => Promise<T>, until?: Date): Promise<T>;
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** An error an operation can answer, with the message it answers it with (the OpenAPI example). */
export interface DeclaredError {
  status: 400 | 402 | 404 | 409;
  message: string;
}

export type ToolGuidance = 'explicit-request' | 'list-brands';

export interface Operation<
  P extends z.ZodType = z.ZodType,
  R extends z.ZodType = z.ZodType,
  N extends string = string,
  M extends Method = Method,
> {
  /**
   * Also the REST path below /api/mcp (and /api/v1) unless `path` says otherwise. A literal type in
   * each declaration, so the app's pages name operations the type checker knows (src/web/operation-types.ts).
   */
  name: N;
  /** Literal in each declaration too: the app reads with a GET operation and changes with any other. */
  method: M;
  /** Koa-style path below the surface prefix, e.g. `/content-opportunities/:id/status`. */
  path?: string;
  /** MCP tool name; omitted: not an MCP tool. */
  tool?: string;
  /** MCP argument name of the `:id` path parameter (e.g. `opportunity_id`). */
  idArg?: string;
  /** Also served under /api/v1. */
  metrics?: boolean;
  /**
   * Whether the operation changes state: MCP `readOnlyHint` is its opposite, and a write tool's
   * description tells a model to run it only at the user's explicit request.
   */
  write?: boolean;
  /** A write that deletes or overwrites what the user made (MCP `destructiveHint`); default false. */
  destructive?: boolean;
  /** A write that has no further effect when repeated with the same input (MCP `idempotentHint`); default false. */
  idempotent?: boolean;
  /** Reaches outside Answerscope, e.g. fetches a web page (MCP `openWorldHint`); default false. */
  openWorld?: boolean;
  /** Takes one unit of this monthly quota, so it answers 402 once the quota is used up. */
  quota?: QuotaKind;
  /**
   * The 400s and 404s it answers beyond what its params bring: a parameter's own validation message
   * (any params), and `Brand not found` (a `brand_id` parameter, resolved by `ctx.brand`).
   */
  errors?: readonly DeclaredError[];
  /**
   * Guidance for a model that `description` itself gives, so the MCP tool description does not add
   * its own sentence for it: `explicit-request` (a write runs only when the user asks for it) and
   * `list-brands` (brand_id comes from list_brands).
   */
  says?: readonly ToolGuidance[];
  params: P;
  result: R;
  description: string;
  run(ctx: Ctx, params: z.output<P>): Promise<z.input<R>>;
}

export function operation<P extends z.ZodType, R extends z.ZodType, const N extends string, const M extends Method>(
  op: Operation<P, R, N, M>,
): Operation<P, R, N, M> {
  return op;
}

export function operationPath(op: Operation): string {
  return op.path ?? `/${op.name}`;
}
