// The plan's limit on tracked prompts (docs/workspace.md): at most 50 (starter), 500 (growth)
// or 2,000 (business) active prompts per organization, counting those the daily capture asks
// (active, and not in an inactive topic). Checked after a change, in its transaction and under the
// organization's row lock: a change that adds or activates prompts past the limit is refused with
// a 402 naming it and leaves nothing written; a change that does not raise the count always passes
// (an organization over the limit after a plan change may still deactivate or edit its prompts).
import { ApiError } from '../errors.ts';
import type { Queryable } from '../stores/postgres.ts';
import type { Plan } from './quotas.ts';
import { planOf } from './organizations.ts';

export const ACTIVE_PROMPT_LIMITS: Record<Plan, number> = { starter: 50, growth: 500, business: 2000 };

/** `Active prompt limit reached (50 on the starter plan)`. */
export const promptLimitMessage = (plan: Plan) =>
  `Active prompt limit reached (${ACTIVE_PROMPT_LIMITS[plan].toLocaleString('en-US')} on the ${plan} plan)`;

/** The organization's tracked prompts, all brands together. */
export async function activePromptCount(db: Queryable, organizationId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM prompts p JOIN brands b ON b.id = p.brand_id
       LEFT JOIN topics t ON t.id = p.topic_id
      WHERE b.organization_id = $1 AND p.is_active AND (t.id IS NULL OR t.is_active)`,
    [organizationId],
  );
  return rows[0].n;
}

/** 402 when the change raised the organization's tracked prompts (from `before`) past its plan's limit. */
export async function checkPromptLimit(db: Queryable, organizationId: string, before: number): Promise<void> {
  const plan = await planOf(db, organizationId);
  const after = await activePromptCount(db, organizationId);
  if (after > before && after > ACTIVE_PROMPT_LIMITS[plan]) throw new ApiError(402, promptLimitMessage(plan));
}
