// The organization's plan and this month's use of its quotas: what the app's Settings > Usage
// shows, from the same operation any API client can call.
import { z } from 'zod';
import { operation } from './registry.ts';
import { badRequest } from '../errors.ts';
import { organizationPlan } from '../tenancy/organizations.ts';
import { quotaPeriod, quotaStatus, type QuotaKind } from '../tenancy/quotas.ts';

const NO_ORGANIZATION = 'The API key belongs to no organization';

const Quota = z.object({
  used: z.number().int(),
  limit: z.number().int().describe('-1 when unlimited'),
  remaining: z.number().int().describe('-1 when unlimited'),
});

export const usage = operation({
  name: 'usage',
  method: 'GET',
  errors: [{ status: 400, message: NO_ORGANIZATION }],
  params: z.object({}),
  result: z.object({
    organization: z.string(),
    plan: z.enum(['starter', 'growth', 'business']),
    trial_ends_at: z.string().describe('ISO 8601 timestamp'),
    period: z.string().describe('The quota month: its first day, YYYY-MM-DD (UTC)'),
    briefs: Quota,
    drafts: Quota,
    audits: Quota,
  }),
  description:
    "The organization's plan, trial end and this calendar month's (UTC) content briefs, drafts and site audits " +
    'used against their limits.',
  run: async (ctx) => {
    const org = ctx.identity.organizationId;
    const row = org ? await organizationPlan(ctx.stores.pg, org) : null;
    if (!org || !row) throw badRequest(NO_ORGANIZATION);
    const now = ctx.now();
    const quota = (kind: QuotaKind) => quotaStatus(ctx.stores.pg, org, kind, now);
    const [briefs, drafts, audits] = await Promise.all([quota('briefs'), quota('drafts'), quota('audits')]);
    return {
      organization: row.name,
      plan: row.plan,
      trial_ends_at: new Date(row.trial_ends_at).toISOString(),
      period: quotaPeriod(now),
      briefs,
      drafts,
      audits,
    };
  },
});
