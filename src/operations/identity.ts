// whoami and brands: the connection test and the list every other call starts from.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandsOfOrganization } from '../tenancy/brands.ts';
import { samplingOf } from '../tenancy/brand-sampling.ts';
import { SamplingResult } from './brand-writes.ts';

const Identity = z.object({
  userId: z.string().uuid(),
  email: z.string(),
  organizationId: z.string().uuid().nullable(),
});

export const whoami = operation({
  name: 'whoami',
  method: 'GET',
  metrics: true,
  params: z.object({}),
  result: Identity,
  description: 'The identity the API key resolves to: user, email and organization. Use it to test a connection.',
  run: async (ctx) => ({
    userId: ctx.identity.userId,
    email: ctx.identity.email,
    organizationId: ctx.identity.organizationId,
  }),
});

export const Brand = z.object({
  id: z.string().uuid(),
  name: z.string(),
  slug: z.string(),
  industry: z.string(),
  region: z.string().describe('Region code, e.g. US'),
  domains: z.array(z.string()).describe('The brand domains (sub-domains count too)'),
  aliases: z.array(z.string()).describe('Other names answers may use for the brand'),
  created_at: z.string().describe('ISO 8601 timestamp'),
  sampling: SamplingResult,
});

export const brands = operation({
  name: 'brands',
  method: 'GET',
  tool: 'list_brands',
  metrics: true,
  params: z.object({}),
  result: z.array(Brand),
  description:
    'Lists the brands of your organization, newest first. Call this first: every other tool needs a brand_id ' +
    'from here.',
  run: async (ctx) =>
    (await brandsOfOrganization(ctx.stores.pg, ctx.identity.organizationId)).map((b) => ({
      id: b.id,
      name: b.name,
      slug: b.slug,
      industry: b.industry,
      region: b.region,
      domains: b.domains,
      aliases: b.aliases,
      created_at: new Date(b.created_at).toISOString(),
      sampling: samplingOf(b, ctx.config.tracking.samples),
    })),
});
