// Site audits: start one (uses a unit of the monthly audit quota), list, read, and the quota.
// The audit itself runs in the background worker (src/audits/runner.ts).
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, pathId, requiredUrl } from './params.ts';
import { notFound } from '../errors.ts';
import { CATEGORIES } from '../audits/categories.ts';
import { auditInOrganization, createAudit, listAudits, type AuditRow } from '../audits/store.ts';
import { auditQueued } from '../audits/runner.ts';
import { quotaStatus } from '../tenancy/quotas.ts';
import { UUID_RE } from '../uuid.ts';

const AUDIT_NOT_FOUND = 'Audit not found';

/** What is wrong with a page to audit: it must be an absolute http(s) URL without credentials. */
function pageUrlProblem(s: string): string | undefined {
  let u: URL | null = null;
  try {
    u = new URL(s);
  } catch {
    /* reported below */
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || !u.hostname) return 'url must be an http(s) URL';
  if (u.username || u.password) return 'url must not contain a user name or password';
  return undefined;
}

const pageUrl = requiredUrl('url', pageUrlProblem);

const Status = z.enum(['running', 'completed', 'failed']);

const Signal = z.object({
  key: z.string(),
  category: z.enum(CATEGORIES),
  status: z.enum(['pass', 'warn', 'fail', 'na']),
  score: z.number().min(0).max(1),
  evidence: z.string(),
});

const Recommendation = z.object({
  signal: z.string(),
  category: z.enum(CATEGORIES),
  status: z.enum(['warn', 'fail']),
  expectedGain: z.number().describe('Points of totalScore gained by making the signal pass'),
  fix: z.string(),
  why: z.string(),
});

const CategoryScores = z.object(
  Object.fromEntries(CATEGORIES.map((c) => [c, z.number().nullable()])) as Record<
    (typeof CATEGORIES)[number],
    z.ZodNullable<z.ZodNumber>
  >,
);

const AuditListItem = z.object({
  id: z.string().uuid(),
  url: z.string(),
  status: Status,
  totalScore: z.number().nullable().describe('0-100; null until completed'),
  signalsEvaluated: z.number().int().nullable(),
  signalsTotal: z.number().int().nullable(),
  createdAt: z.string(),
});

const Audit = z.object({
  id: z.string().uuid(),
  brandId: z.string().uuid(),
  url: z.string(),
  finalUrl: z.string().nullable().describe('The URL that answered, after redirects'),
  status: Status,
  totalScore: z.number().nullable(),
  categoryScores: CategoryScores.nullable(),
  signalsEvaluated: z.number().int().nullable(),
  signalsTotal: z.number().int().nullable(),
  recommendations: z.array(Recommendation).describe('Ordered by expected gain, largest first'),
  signals: z.array(Signal),
  error: z.string().nullable().describe('Why a failed audit failed'),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
});

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** The stored scores, one per rubric category as the runner writes them (src/audits/score.ts). */
function categoryScores(s: AuditRow['category_scores']): z.input<typeof CategoryScores> | null {
  if (!s) return null;
  return { technical: s.technical, structure: s.structure, content: s.content, authority: s.authority, eeat: s.eeat };
}

function listItem(r: AuditRow): z.input<typeof AuditListItem> {
  return {
    id: r.id,
    url: r.url,
    status: r.status,
    totalScore: r.total_score,
    signalsEvaluated: r.signals_evaluated,
    signalsTotal: r.signals_total,
    createdAt: iso(r.created_at)!,
  };
}

function fullItem(r: AuditRow): z.input<typeof Audit> {
  return {
    id: r.id,
    brandId: r.brand_id,
    url: r.url,
    finalUrl: r.final_url,
    status: r.status,
    totalScore: r.total_score,
    categoryScores: categoryScores(r.category_scores),
    signalsEvaluated: r.signals_evaluated,
    signalsTotal: r.signals_total,
    recommendations: r.recommendations ?? [],
    signals: r.signals ?? [],
    error: r.error,
    createdAt: iso(r.created_at)!,
    completedAt: iso(r.completed_at),
  };
}

export const runSiteAudit = operation({
  name: 'run-site-audit',
  method: 'POST',
  path: '/site-audits',
  tool: 'run_site_audit',
  write: true,
  openWorld: true, // fetches the page from the web
  quota: 'audits',
  says: ['explicit-request'],
  params: z.object({ brand_id: brandId, url: pageUrl }),
  result: z.object({
    id: z.string().uuid(),
    brandId: z.string().uuid(),
    url: z.string(),
    status: z.literal('running'),
  }),
  description:
    'Starts an AI-readiness audit of one page and returns its id at once (status running). Uses one site audit ' +
    'of the monthly quota; 402 when the quota is used up. The audit finishes in about 30 seconds: poll ' +
    "get_site_audit. Run only at the user's explicit request.",
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const row = await createAudit(ctx.stores.pg, {
      organizationId: brand.organization_id,
      brandId: brand.id,
      url: p.url,
      now: ctx.now(),
    });
    auditQueued();
    return { id: row.id, brandId: row.brand_id, url: row.url, status: 'running' as const };
  },
});

export const siteAudits = operation({
  name: 'site-audits',
  method: 'GET',
  tool: 'list_site_audits',
  params: z.object({ brand_id: brandId }),
  result: z.array(AuditListItem),
  description: 'Lists the 50 most recent site audits of a brand, newest first, with status and total score.',
  run: async (ctx, p) => (await listAudits(ctx.stores.pg, (await ctx.brand(p.brand_id)).id, 50)).map(listItem),
});

// Registered before `/site-audits/:id` (see operations/index.ts) so "quota" is not read as an id.
export const siteAuditQuota = operation({
  name: 'site-audit-quota',
  method: 'GET',
  path: '/site-audits/quota',
  tool: 'get_site_audit_quota',
  params: z.object({}),
  result: z.object({
    used: z.number().int(),
    limit: z.number().int().describe('-1 when unlimited'),
    remaining: z.number().int().describe('-1 when unlimited'),
  }),
  description: 'Site audits used and remaining this calendar month (UTC); limit and remaining are -1 when unlimited.',
  run: async (ctx) => {
    const org = ctx.identity.organizationId;
    if (!org) return { used: 0, limit: 0, remaining: 0 };
    return quotaStatus(ctx.stores.pg, org, 'audits', ctx.now());
  },
});

export const siteAudit = operation({
  name: 'site-audit',
  method: 'GET',
  path: '/site-audits/:id',
  tool: 'get_site_audit',
  idArg: 'audit_id',
  errors: [{ status: 404, message: AUDIT_NOT_FOUND }],
  params: z.object({
    id: pathId('audit_id').describe('The audit (UUID), as run_site_audit or list_site_audits return it'),
  }),
  result: Audit,
  description:
    'One site audit: status, total score (0-100), category scores, every signal checked with its evidence, and ' +
    'recommendations ordered by expected gain. While status is running, poll again.',
  run: async (ctx, p) => {
    // A malformed id names no audit: the same 404 as an unknown or foreign one.
    const row = UUID_RE.test(p.id)
      ? await auditInOrganization(ctx.stores.pg, ctx.identity.organizationId, p.id.toLowerCase())
      : undefined;
    if (!row) throw notFound(AUDIT_NOT_FOUND);
    return fullItem(row);
  },
});

/** In registration order: the quota route before the `:id` route. */
export const auditOperations = [runSiteAudit, siteAudits, siteAuditQuota, siteAudit];
