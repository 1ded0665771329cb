// Organization rows as other modules need them: whether one exists, its row lock, its plan.
import type { Queryable } from '../stores/postgres.ts';
import type { Plan } from './quotas.ts';

export async function organizationExists(db: Queryable, organizationId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM organizations WHERE id = $1', [organizationId]);
  return (rowCount ?? 0) > 0;
}

/**
 * Locks the organization's row until the caller's transaction ends, so per-organization caps
 * (e.g. webhook endpoints) hold under concurrent requests. `client` must be that transaction's.
 */
export async function lockOrganization(client: Queryable, organizationId: string): Promise<void> {
  await client.query('SELECT id FROM organizations WHERE id = $1 FOR UPDATE', [organizationId]);
}

/** The organization's plan. */
export async function planOf(db: Queryable, organizationId: string): Promise<Plan> {
  const { rows } = await db.query<{ plan: Plan }>('SELECT plan FROM organizations WHERE id = $1', [organizationId]);
  return rows[0].plan;
}

export interface OrganizationPlan {
  name: string;
  plan: 'starter' | 'growth' | 'business';
  trial_ends_at: Date;
}

/** The organization's name, plan and trial end, or null when there is no such organization. */
export async function organizationPlan(db: Queryable, organizationId: string): Promise<OrganizationPlan | null> {
  const { rows } = await db.query<OrganizationPlan>(
    'SELECT name, plan, trial_ends_at FROM organizations WHERE id = $1',
    [organizationId],
  );
  return rows[0] ?? null;
}
