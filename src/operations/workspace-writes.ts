// What the workspace operations (brands, competitors, topics, prompts: docs/workspace.md)
// share: resolving the brand a write acts on, running the write as one change of that brand
// (src/tenancy/workspace-change.ts) and waking this process's re-analysis worker when the change
// queued one, and the pieces of their declarations.
import { z } from 'zod';
import { badRequest, notFound } from '../errors.ts';
import { BRAND_NOT_FOUND, type BrandRecord } from '../tenancy/brands.ts';
import { changeBrand } from '../tenancy/workspace-change.ts';
import type { Queryable } from '../stores/postgres.ts';
import { reanalysisQueued } from '../tracking/reanalysis/queue.ts';
import { UUID_RE } from '../uuid.ts';
import type { Ctx } from './registry.ts';

export const NO_ORGANIZATION = 'The API key belongs to no organization';

/** The caller's organization; a key of a person in none can set nothing up. */
export function organizationOf(ctx: Ctx): string {
  if (!ctx.identity.organizationId) throw badRequest(NO_ORGANIZATION);
  return ctx.identity.organizationId;
}

/** The brand of a path id: a malformed id names no brand, so it is the same 404. */
export function brandOfPath(ctx: Ctx, id: string): Promise<BrandRecord> {
  if (!UUID_RE.test(id)) throw notFound(BRAND_NOT_FOUND);
  return ctx.brand(id.toLowerCase());
}

/**
 * Runs `change` as one change of the brand, and starts the re-analysis it queued at once in this
 * process (another instance's worker would take it at its next poll).
 */
export async function writeBrand<T>(
  ctx: Ctx,
  brandId: string,
  change: (db: Queryable) => Promise<T>,
): Promise<{ result: T; reanalysis_queued: boolean }> {
  const done = await changeBrand(ctx.stores.pg, organizationOf(ctx), brandId, change);
  if (done.reanalysis_queued) reanalysisQueued();
  return done;
}

/** 400 unless a change names at least one of `fields`. */
export function requireChange(p: Record<string, unknown>, fields: readonly string[]): void {
  if (!fields.some((f) => p[f] !== undefined))
    throw badRequest(`Give at least one field to change: ${fields.join(', ')}`);
}

export const reanalysisQueuedField = z
  .boolean()
  .describe(
    "Whether the change queued a re-analysis of the brand's stored answers (their figures follow the " +
      'workspace); follow it with get_reanalysis_status',
  );

/** The `explicit-request` guidance every workspace write's description ends with. */
export const AT_USER_REQUEST = "Run only at the user's explicit request.";
