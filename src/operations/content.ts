// Content opportunities: list, read, brief, draft and status (docs/api.md section 23, "Content opportunity",
// "Content brief", "Content draft"). Ids of another organization's opportunities are 404s.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, limit, oneOf, optionalOneOf, pathId } from './params.ts';
import { Brief, Draft } from '../content/schemas.ts';
import {
  getOpportunity,
  listOpportunities,
  OPPORTUNITY_NOT_FOUND,
  OPPORTUNITY_STATUSES,
  publicOpportunity,
  setOpportunityStatus,
} from '../content/opportunity-store.ts';
import { generateBrief } from '../content/briefs.ts';
import { BRIEF_REQUIRED, generateDraft } from '../content/drafts.ts';

const TYPES = ['owned', 'earned'] as const;
const IMPACTS = ['high', 'medium', 'low'] as const;

/** The path id: any string (a malformed one names no opportunity, so it is the same 404). */
const opportunityId = z.object({
  id: pathId('opportunity_id').describe('The opportunity (UUID), as returned by list_content_opportunities'),
});
const notFound = { status: 404, message: OPPORTUNITY_NOT_FOUND } as const;

const OpportunityItem = z.object({
  id: z.string().uuid(),
  title: z.string(),
  description: z.string(),
  type: z
    .enum(TYPES)
    .describe("owned: a page on the brand's own site; earned: coverage in the third-party sources engines cite"),
  impact: z.enum(IMPACTS),
  opportunity_score: z
    .number()
    .min(0)
    .max(100)
    .describe('0-100: 100 x (0.3 volume + 0.4 visibility gap + 0.3 competitor presence)'),
  status: z.enum(OPPORTUNITY_STATUSES),
  prompt_id: z.string().uuid(),
  prompt_text: z.string(),
  has_brief: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

const Opportunity = OpportunityItem.extend({
  source_data: z.record(z.string(), z.unknown()).describe('The tracking signals behind the opportunity'),
  brief: Brief.nullable().describe('The saved brief, or null before one is generated'),
});

export const contentOpportunities = operation({
  name: 'content-opportunities',
  method: 'GET',
  tool: 'list_content_opportunities',
  params: z.object({
    brand_id: brandId,
    status: optionalOneOf('status', OPPORTUNITY_STATUSES),
    impact: optionalOneOf('impact', IMPACTS),
    type: optionalOneOf('type', TYPES),
    limit: limit(1, 200, 50),
  }),
  result: z.array(OpportunityItem),
  description:
    'Content opportunities of a brand: tracked prompts where AI answers name or cite competitors and not the ' +
    'brand, sorted by opportunity_score (highest first). Filter by status, impact or type.',
  run: async (ctx, p) => listOpportunities(ctx.stores.pg, (await ctx.brand(p.brand_id)).id, p),
});

export const contentOpportunity = operation({
  name: 'content-opportunity',
  method: 'GET',
  path: '/content-opportunities/:id',
  tool: 'get_content_opportunity',
  idArg: 'opportunity_id',
  errors: [notFound],
  params: opportunityId,
  result: Opportunity,
  description:
    'One content opportunity with the tracking signals behind it (source_data) and its saved brief (or null).',
  run: async (ctx, p) => publicOpportunity(await getOpportunity(ctx.stores.pg, ctx.identity.organizationId, p.id)),
});

export const contentBrief = operation({
  name: 'content-brief',
  method: 'POST',
  path: '/content-opportunities/:id/brief',
  tool: 'generate_content_brief',
  idArg: 'opportunity_id',
  write: true,
  quota: 'briefs',
  errors: [notFound],
  says: ['explicit-request'],
  params: opportunityId,
  result: z.object({ id: z.string().uuid(), brief: Brief, generated_at: z.string(), regenerated: z.boolean() }),
  description:
    'Generates a fresh content brief for an opportunity and saves it in place of any earlier one (regenerated ' +
    'tells whether one was replaced). Uses one brief of the monthly allowance; 402 when it is used up. Run ' +
    "only at the user's explicit request.",
  run: (ctx, p) => generateBrief(ctx, ctx.identity.organizationId, p.id),
});

export const contentDraft = operation({
  name: 'content-draft',
  method: 'POST',
  path: '/content-opportunities/:id/draft',
  tool: 'generate_content_draft',
  idArg: 'opportunity_id',
  write: true,
  quota: 'drafts',
  errors: [{ status: 400, message: BRIEF_REQUIRED }, notFound],
  says: ['explicit-request'],
  params: opportunityId,
  result: z.object({ id: z.string().uuid(), content: Draft, generated_at: z.string(), regenerated: z.boolean() }),
  description:
    "Writes the full draft (HTML, meta tags, FAQs, key takeaways, JSON-LD) from the opportunity's saved brief; " +
    'generate the brief first. Uses one draft of the monthly allowance; 402 when it is used up. Run only at ' +
    "the user's explicit request.",
  run: (ctx, p) => generateDraft(ctx, ctx.identity.organizationId, p.id),
});

export const opportunityStatus = operation({
  name: 'content-opportunity-status',
  method: 'PATCH',
  path: '/content-opportunities/:id/status',
  tool: 'update_opportunity_status',
  idArg: 'opportunity_id',
  write: true,
  errors: [notFound],
  says: ['explicit-request'],
  params: opportunityId.extend({ status: oneOf('status', OPPORTUNITY_STATUSES) }),
  result: z.object({ id: z.string().uuid(), status: z.enum(OPPORTUNITY_STATUSES), updated_at: z.string() }),
  description:
    'Sets the status of a content opportunity: new, sent, in_progress, done or dismissed. Changing it to sent ' +
    "sends the opportunity.sent webhook. Run only at the user's explicit request.",
  run: (ctx, p) => setOpportunityStatus(ctx.stores.pg, ctx.identity.organizationId, p.id, p.status),
});

/** In registration order: the list before the `:id` routes. */
export const contentOperations = [
  contentOpportunities,
  contentOpportunity,
  contentBrief,
  contentDraft,
  opportunityStatus,
];
