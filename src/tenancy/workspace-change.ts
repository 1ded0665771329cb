// One change of a brand's workspace (its fields, competitors, topics or prompts), as `apply` and
// the API make it: in one transaction under the organization's row lock, so changes of one
// organization follow one another (the prompt limit and the before/after comparison hold under
// concurrent requests). What the change made stale is dealt with before it commits: a change of
// anything bumps the brand's data_version, a change of its entities queues a re-analysis
// (docs/analysis.md), and adding or activating prompts past the plan's limit undoes it all.
import type { Postgres, Queryable } from '../stores/postgres.ts';
import { bumpDataVersion } from './brands.ts';
import { entityChanges, readBrandState, stateChanged, type BrandState } from './brand-state.ts';
import { lockOrganization } from './organizations.ts';
import { activePromptCount, checkPromptLimit } from './prompt-limit.ts';
import { queueReanalysis } from './reanalysis-queue.ts';

/** Invalidates what the change made stale; returns whether a re-analysis was queued. */
export async function afterChange(db: Queryable, brandId: string, before: BrandState): Promise<boolean> {
  const after = await readBrandState(db, brandId);
  if (!stateChanged(before, after)) return false;
  await bumpDataVersion(db, [brandId]);
  const reason = entityChanges(before, after);
  if (reason) await queueReanalysis(db, brandId, reason);
  return reason !== '';
}

/**
 * Runs `change` on the organization's brand in one transaction; `reanalysis_queued` says whether it
 * changed what answers are analysed with.
 */
export function changeBrand<T>(
  pg: Postgres,
  organizationId: string,
  brandId: string,
  change: (db: Queryable) => Promise<T>,
): Promise<{ result: T; reanalysis_queued: boolean }> {
  return pg.tx(async (db) => {
    await lockOrganization(db, organizationId);
    const prompts = await activePromptCount(db, organizationId);
    const before = await readBrandState(db, brandId);
    const result = await change(db);
    await checkPromptLimit(db, organizationId, prompts);
    return { result, reanalysis_queued: await afterChange(db, brandId, before) };
  });
}

/** Runs `change` in one transaction under the organization's row lock (a new brand: nothing to compare). */
export function changeOrganization<T>(
  pg: Postgres,
  organizationId: string,
  change: (db: Queryable) => Promise<T>,
): Promise<T> {
  return pg.tx(async (db) => {
    await lockOrganization(db, organizationId);
    return change(db);
  });
}
