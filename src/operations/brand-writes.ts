// Brands set up through the API (docs/workspace.md): create, change, and the state of the
// re-analysis a change of its entities queues. The same insert and update as `apply`.
import { z } from 'zod';
import { operation } from './registry.ts';
import { pathId } from './params.ts';
import { brandExists, insertBrand, updateBrand, type WrittenBrand } from '../tenancy/brand-writes.ts';
import { changeOrganization } from '../tenancy/workspace-change.ts';
import { reanalysisReport } from '../tenancy/reanalysis-queue.ts';
import { BRAND_NOT_FOUND } from '../tenancy/brands.ts';
import { samplingOf } from '../tenancy/brand-sampling.ts';
import {
  aliases,
  domains,
  plainString,
  requiredString,
  sampling,
  slug,
  slugOf,
  strictObject,
} from '../tenancy/workspace-fields.ts';
import {
  AT_USER_REQUEST,
  brandOfPath,
  NO_ORGANIZATION,
  organizationOf,
  reanalysisQueuedField,
  requireChange,
  writeBrand,
} from './workspace-writes.ts';

const brandNotFound = { status: 404, message: BRAND_NOT_FOUND } as const;

export const SamplingResult = z
  .discriminatedUnion('mode', [
    z.object({ mode: z.literal('fixed'), samples: z.number().int() }),
    z.object({
      mode: z.literal('adaptive'),
      min_samples: z.number().int(),
      max_samples: z.number().int(),
      target_half_width: z.number(),
    }),
  ])
  .describe(
    "How the daily capture samples the brand's prompts: fixed, samples a day per prompt, platform and region; " +
      "or adaptive, max_samples while the cell's 28-day mention-rate interval is wider than target_half_width " +
      'points, else min_samples',
  );

const WrittenBrandResult = z.object({
  id: z.string().uuid(),
  name: z.string(),
  slug: z.string(),
  industry: z.string(),
  region: z.string(),
  domains: z.array(z.string()),
  aliases: z.array(z.string()),
  tracking_id: z.string().describe('The data-site value of the AI-traffic tracking script'),
  created_at: z.string(),
  sampling: SamplingResult,
});

const fields = {
  name: requiredString('name').describe('The brand as answers name it'),
  slug: slug.describe('Lower-case letters, digits and dashes; unique in the organization'),
  industry: plainString('industry'),
  region: plainString('region', 64).describe('Region code, e.g. US'),
  domains: domains.describe('Bare domains of the brand, e.g. acme.example (sub-domains count too)'),
  aliases: aliases.describe('Other names answers may use for the brand'),
  sampling: sampling.describe(
    'How the daily capture samples: {mode: "fixed", samples} (default TRACKING_SAMPLES) or {mode: "adaptive", ' +
      'min_samples (default 1), max_samples, target_half_width (points, default 5)}',
  ),
};

const view = (b: WrittenBrand, serverSamples: number) => ({
  id: b.id,
  name: b.name,
  slug: b.slug,
  industry: b.industry,
  region: b.region,
  domains: b.domains,
  aliases: b.aliases,
  tracking_id: b.tracking_id,
  created_at: b.created_at,
  sampling: samplingOf(b, serverSamples),
});

export const createBrand = operation({
  name: 'create-brand',
  method: 'POST',
  path: '/brands',
  tool: 'create_brand',
  write: true,
  says: ['explicit-request'],
  errors: [
    { status: 409, message: 'Brand "acme" already exists' },
    { status: 400, message: NO_ORGANIZATION },
  ],
  params: strictObject({
    name: fields.name,
    slug: fields.slug.optional().describe('Default: the name in lower case, other characters as dashes'),
    industry: fields.industry.default(''),
    region: fields.region.default(''),
    domains: fields.domains.default([]),
    aliases: fields.aliases.default([]),
    sampling: fields.sampling.optional(),
  }),
  result: WrittenBrandResult,
  description:
    'Creates a brand to track in the organization; a second brand with the same slug is refused (409). ' +
    `Add its competitors, topics and prompts next. ${AT_USER_REQUEST}`,
  run: async (ctx, p) => {
    const organizationId = organizationOf(ctx);
    const brandSlug = p.slug ?? slugOf(p.name);
    const made = await changeOrganization(ctx.stores.pg, organizationId, (db) =>
      insertBrand(db, organizationId, { ...p, slug: brandSlug }),
    );
    if (!made) throw brandExists(brandSlug);
    return view(made, ctx.config.tracking.samples);
  },
});

const CHANGEABLE = ['name', 'slug', 'industry', 'region', 'domains', 'aliases', 'sampling'] as const;

export const updateBrandOperation = operation({
  name: 'update-brand',
  method: 'PATCH',
  path: '/brands/:id',
  tool: 'update_brand',
  idArg: 'brand_id',
  write: true,
  destructive: true,
  idempotent: true,
  says: ['explicit-request'],
  errors: [brandNotFound, { status: 409, message: 'Brand "acme" already exists' }],
  params: strictObject({
    id: pathId('brand_id').describe('The brand (UUID), as returned by list_brands'),
    name: fields.name.optional(),
    slug: fields.slug.optional(),
    industry: fields.industry.optional(),
    region: fields.region.optional(),
    domains: fields.domains.optional().describe('Replaces the brand domains'),
    aliases: fields.aliases.optional().describe('Replaces the brand aliases'),
    sampling: fields.sampling.optional(),
  }),
  result: WrittenBrandResult.extend({ reanalysis_queued: reanalysisQueuedField }),
  description:
    "Changes a brand's name, slug, industry, region, domains, aliases (lists are replaced) or " +
    'sampling. A new name, alias or domain queues a re-analysis of all its stored answers (reanalysis_queued). ' +
    `${AT_USER_REQUEST}`,
  run: async (ctx, p) => {
    const { id, ...change } = p;
    const brand = await brandOfPath(ctx, id);
    requireChange(change, CHANGEABLE);
    const { result, reanalysis_queued } = await writeBrand(ctx, brand.id, (db) => updateBrand(db, brand.id, change));
    return { ...view(result, ctx.config.tracking.samples), reanalysis_queued };
  },
});

export const reanalysisStatus = operation({
  name: 'brand-reanalysis',
  method: 'GET',
  path: '/brands/:id/reanalysis',
  tool: 'get_reanalysis_status',
  idArg: 'brand_id',
  errors: [brandNotFound],
  params: strictObject({ id: pathId('brand_id').describe('The brand (UUID), as returned by list_brands') }),
  result: z.object({
    brand_id: z.string().uuid(),
    state: z
      .enum(['idle', 'queued', 'running', 'failed'])
      .describe(
        'idle: nothing pending, the figures follow the workspace; queued or running: they will soon; failed: see error',
      ),
    progress: z
      .number()
      .int()
      .min(0)
      .max(100)
      .nullable()
      .describe('While running: the share of stored answers analysed again, 0-100'),
    error: z.string().nullable().describe('Why the last run failed (state failed); the figures stay those of before'),
    reason: z.string().nullable().describe('The workspace changes the pending or failed run is for'),
    last_finished_at: z.string().nullable().describe('When a re-analysis of the brand last finished'),
  }),
  description:
    "The state of a brand's re-analysis, queued by a change of its name, aliases, domains or competitors: " +
    'idle, queued, running (with progress 0-100) or failed (with error), and when one last finished.',
  run: async (ctx, p) => reanalysisReport(ctx.stores.pg, (await brandOfPath(ctx, p.id)).id),
});

export const brandWriteOperations = [createBrand, updateBrandOperation, reanalysisStatus];
