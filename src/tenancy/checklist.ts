// The set-up checklist on a new organization's overview (docs/app.md "A checklist"): what the
// organization has done so far, read from its own rows, and whether someone dismissed the list.
import type { Queryable } from '../stores/postgres.ts';

export interface OrganizationSteps {
  brands: number;
  competitors: number;
  active_prompts: number;
  /** Members beyond the first, and invitations sent. */
  invited: boolean;
  /**
   * An assistant connected over MCP: an OAuth grant in force, or a request to /api/mcp (with a key or
   * a token) seen once. A key used only on REST connects no assistant.
   */
  assistant_connected: boolean;
  dismissed_at: string | null;
}

export async function organizationSteps(db: Queryable, organizationId: string): Promise<OrganizationSteps> {
  const { rows } = await db.query<{
    brands: string;
    competitors: string;
    active_prompts: string;
    invited: boolean;
    assistant_connected: boolean;
    dismissed_at: Date | null;
  }>(
    `SELECT (SELECT count(*) FROM brands WHERE organization_id = $1) AS brands,
            (SELECT count(*) FROM competitors c JOIN brands b ON b.id = c.brand_id
              WHERE b.organization_id = $1) AS competitors,
            (SELECT count(*) FROM prompts p JOIN brands b ON b.id = p.brand_id
              WHERE b.organization_id = $1 AND p.is_active) AS active_prompts,
            ((SELECT count(*) FROM memberships WHERE organization_id = $1) > 1
              OR EXISTS (SELECT 1 FROM invitations WHERE organization_id = $1)) AS invited,
            (EXISTS (SELECT 1 FROM oauth_grants WHERE organization_id = $1 AND revoked_at IS NULL)
              OR (SELECT assistant_connected_at IS NOT NULL FROM organizations WHERE id = $1))
              AS assistant_connected,
            (SELECT checklist_dismissed_at FROM organizations WHERE id = $1) AS dismissed_at`,
    [organizationId],
  );
  const r = rows[0];
  return {
    brands: Number(r.brands),
    competitors: Number(r.competitors),
    active_prompts: Number(r.active_prompts),
    invited: r.invited,
    assistant_connected: r.assistant_connected,
    dismissed_at: r.dismissed_at ? new Date(r.dismissed_at).toISOString() : null,
  };
}

/** Hides the checklist for the whole organization. */
export async function dismissChecklist(db: Queryable, organizationId: string): Promise<void> {
  await db.query(
    'UPDATE organizations SET checklist_dismissed_at = COALESCE(checklist_dismissed_at, now()) WHERE id = $1',
    [organizationId],
  );
}

// Organizations already marked, so an MCP request writes at most once per organization and process.
const marked = new Set<string>();

/** Records that an assistant spoke to the organization over MCP (the checklist's last step). */
export async function markAssistantConnected(db: Queryable, organizationId: string): Promise<void> {
  if (marked.has(organizationId)) return;
  await db.query(
    'UPDATE organizations SET assistant_connected_at = now() WHERE id = $1 AND assistant_connected_at IS NULL',
    [organizationId],
  );
  marked.add(organizationId);
}
