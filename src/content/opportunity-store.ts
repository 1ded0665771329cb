// Reads and status changes of content opportunities, always scoped to the caller's organization
// (another tenant's opportunity does not exist). A change to `sent` queues the opportunity.sent
// webhook in the same transaction as the status, so the event exists exactly when the change does.
import type { Queryable } from '../stores/postgres.ts';
import type { Postgres } from '../stores/postgres.ts';
import { notFound } from '../errors.ts';
import { enqueueEvent } from '../webhooks/outbox.ts';
import type { Brief } from './schemas.ts';
import { UUID_RE } from '../uuid.ts';
import { promptsById } from '../tenancy/prompts.ts';

export const OPPORTUNITY_STATUSES = ['new', 'sent', 'in_progress', 'done', 'dismissed'] as const;
export type OpportunityStatus = (typeof OPPORTUNITY_STATUSES)[number];
export const OPPORTUNITY_NOT_FOUND = 'Content opportunity not found';

/** The pool wrapper or a transaction's client. */
type Db = Queryable;

export interface OpportunityItem {
  id: string;
  title: string;
  description: string;
  type: 'owned' | 'earned';
  impact: 'high' | 'medium' | 'low';
  opportunity_score: number;
  status: OpportunityStatus;
  prompt_id: string;
  prompt_text: string;
  has_brief: boolean;
  created_at: string;
  updated_at: string;
}

export interface OpportunityFull extends OpportunityItem {
  source_data: Record<string, unknown>;
  brief: Brief | null;
}

export interface OpportunityRecord extends OpportunityFull {
  organization_id: string;
  brand_id: string;
  draft: unknown;
}

const COLUMNS = `id, organization_id, brand_id, title, description, type, impact, opportunity_score,
  status, prompt_id, brief IS NOT NULL AS has_brief, created_at, updated_at`;

/** A row of COLUMNS as pg returns it. */
interface OpportunityRow {
  id: string;
  organization_id: string;
  brand_id: string;
  title: string;
  description: string;
  type: OpportunityItem['type'];
  impact: OpportunityItem['impact'];
  opportunity_score: number;
  status: OpportunityStatus;
  prompt_id: string;
  has_brief: boolean;
  created_at: Date;
  updated_at: Date;
}

const iso = (d: Date | string) => new Date(d).toISOString();

/** The rows with their prompt's text (`prompt_text`), asked of tenancy in one query. */
async function withPromptTexts<T extends { prompt_id: string }>(
  db: Db,
  rows: T[],
): Promise<(T & { prompt_text: string })[]> {
  if (!rows.length) return [];
  const prompts = await promptsById(db, [...new Set(rows.map((r) => r.prompt_id))]);
  return rows.map((r) => ({ ...r, prompt_text: prompts.get(r.prompt_id)!.text }));
}

function item(r: OpportunityRow & { prompt_text: string }): OpportunityItem {
  return {
    id: r.id,
    title: r.title,
    description: r.description,
    type: r.type,
    impact: r.impact,
    opportunity_score: Number(r.opportunity_score),
    status: r.status,
    prompt_id: r.prompt_id,
    prompt_text: r.prompt_text,
    has_brief: r.has_brief,
    created_at: iso(r.created_at),
    updated_at: iso(r.updated_at),
  };
}

/** The single-item read (also the opportunity.sent payload); undefined when not the organization's. */
export async function findOpportunity(
  db: Db,
  organizationId: string | null,
  id: string,
): Promise<OpportunityRecord | undefined> {
  if (!organizationId || !UUID_RE.test(id)) return undefined;
  const { rows } = await db.query<OpportunityRow & Pick<OpportunityRecord, 'source_data' | 'brief' | 'draft'>>(
    `SELECT ${COLUMNS}, source_data, brief, draft FROM content_opportunities WHERE id = $1 AND organization_id = $2`,
    [id.toLowerCase(), organizationId],
  );
  const [r] = await withPromptTexts(db, rows);
  if (!r) return undefined;
  return {
    ...item(r),
    organization_id: r.organization_id,
    brand_id: r.brand_id,
    source_data: r.source_data,
    brief: r.brief,
    draft: r.draft,
  };
}

/** As the API shows it: the list fields plus source_data and brief. */
export function publicOpportunity(r: OpportunityRecord): OpportunityFull {
  const { organization_id: _o, brand_id: _b, draft: _d, ...rest } = r;
  return rest;
}

export async function getOpportunity(db: Db, organizationId: string | null, id: string): Promise<OpportunityRecord> {
  const r = await findOpportunity(db, organizationId, id);
  if (!r) throw notFound(OPPORTUNITY_NOT_FOUND);
  return r;
}

export async function listOpportunities(
  pgdb: Postgres,
  brandId: string,
  f: { status?: string; impact?: string; type?: string; limit: number },
): Promise<OpportunityItem[]> {
  const { rows } = await pgdb.query<OpportunityRow>(
    `SELECT ${COLUMNS} FROM content_opportunities
      WHERE brand_id = $1
        AND ($2::text IS NULL OR status = $2)
        AND ($3::text IS NULL OR impact = $3)
        AND ($4::text IS NULL OR type = $4)
      ORDER BY opportunity_score DESC, created_at DESC, id
      LIMIT $5`,
    [brandId, f.status ?? null, f.impact ?? null, f.type ?? null, f.limit],
  );
  return (await withPromptTexts(pgdb, rows)).map(item);
}

/** Opportunities the content jobs created for the brand during `day` (UTC), best first: the daily digest's list. */
export async function opportunitiesCreatedOn(db: Db, brandId: string, day: string) {
  const { rows } = await db.query<
    Pick<
      OpportunityRow,
      'id' | 'title' | 'type' | 'impact' | 'opportunity_score' | 'status' | 'prompt_id' | 'created_at'
    >
  >(
    `SELECT id, title, type, impact, opportunity_score, status, prompt_id, created_at
       FROM content_opportunities
      WHERE brand_id = $1 AND created_at >= $2::date AND created_at < $2::date + 1
      ORDER BY opportunity_score DESC, created_at, id`,
    [brandId, day],
  );
  return (await withPromptTexts(db, rows)).map((r) => ({
    id: r.id,
    title: r.title,
    type: r.type,
    impact: r.impact,
    opportunity_score: Number(r.opportunity_score),
    status: r.status,
    prompt_id: r.prompt_id,
    prompt_text: r.prompt_text,
    created_at: iso(r.created_at),
  }));
}

/**
 * Sets the status (any of the five, from any state) and moves updated_at forward. A change to
 * `sent` from another status queues opportunity.sent with the opportunity as the single read
 * shows it; setting `sent` again queues nothing.
 */
export async function setOpportunityStatus(
  pgdb: Postgres,
  organizationId: string | null,
  id: string,
  status: OpportunityStatus,
) {
  if (!organizationId || !UUID_RE.test(id)) throw notFound(OPPORTUNITY_NOT_FOUND);
  return pgdb.tx(async (client) => {
    const { rows: before } = await client.query<{ status: string }>(
      'SELECT status FROM content_opportunities WHERE id = $1 AND organization_id = $2 FOR UPDATE',
      [id.toLowerCase(), organizationId],
    );
    if (!before[0]) throw notFound(OPPORTUNITY_NOT_FOUND);
    const { rows } = await client.query<{ id: string; status: OpportunityStatus; updated_at: Date }>(
      `UPDATE content_opportunities
          SET status = $2, updated_at = GREATEST(clock_timestamp(), updated_at + interval '1 millisecond')
        WHERE id = $1 RETURNING id, status, updated_at`,
      [id.toLowerCase(), status],
    );
    if (status === 'sent' && before[0].status !== 'sent') {
      const data = publicOpportunity((await findOpportunity(client, organizationId, id))!);
      await enqueueEvent(client, { organizationId, type: 'opportunity.sent', data });
    }
    return { id: rows[0].id, status: rows[0].status, updated_at: iso(rows[0].updated_at) };
  });
}
