// A brand's competitors through the API (docs/workspace.md): list, add, change, remove. Every
// change of them changes what the brand's answers are analysed with, so each write answers with
// reanalysis_queued and the stored answers are analysed again: a removed competitor leaves every
// figure, over all history. The same insert and update as `apply`.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, pathId } from './params.ts';
import {
  COMPETITOR_NOT_FOUND,
  competitorBrand,
  competitorExists,
  deleteCompetitor,
  insertCompetitor,
  listCompetitors,
  updateCompetitor,
} from '../tenancy/competitors.ts';
import { aliases, domains, requiredString, strictObject } from '../tenancy/workspace-fields.ts';
import { AT_USER_REQUEST, reanalysisQueuedField, requireChange, writeBrand } from './workspace-writes.ts';

const notFound = { status: 404, message: COMPETITOR_NOT_FOUND } as const;
const exists = { status: 409, message: 'Competitor "Globex" already exists' } as const;

const Competitor = z.object({
  id: z.string().uuid(),
  brand_id: z.string().uuid(),
  name: z.string(),
  domains: z.array(z.string()),
  aliases: z.array(z.string()),
  created_at: z.string(),
});

const fields = {
  name: requiredString('name').describe('The competitor as answers name it; unique in the brand'),
  domains: domains.describe('Bare domains of the competitor, e.g. globex.example (sub-domains count too)'),
  aliases: aliases.describe('Other names answers may use for the competitor'),
};

const competitorId = pathId('competitor_id').describe('The competitor (UUID), as returned by list_competitors');

export const competitors = operation({
  name: 'competitors',
  method: 'GET',
  tool: 'list_competitors',
  params: strictObject({ brand_id: brandId }),
  result: z.array(Competitor),
  description: "Lists a brand's tracked competitors by name, with their domains and aliases.",
  run: async (ctx, p) => listCompetitors(ctx.stores.pg, (await ctx.brand(p.brand_id)).id),
});

export const addCompetitor = operation({
  name: 'add-competitor',
  method: 'POST',
  path: '/competitors',
  tool: 'add_competitor',
  write: true,
  says: ['explicit-request'],
  errors: [exists],
  params: strictObject({
    brand_id: brandId,
    name: fields.name,
    domains: fields.domains.default([]),
    aliases: fields.aliases.default([]),
  }),
  result: Competitor.extend({ reanalysis_queued: reanalysisQueuedField }),
  description:
    "Adds a competitor to a brand; one of the same name is refused (409). All the brand's stored " +
    `answers are analysed again so its figures cover the whole history (reanalysis_queued). ${AT_USER_REQUEST}`,
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const { result, reanalysis_queued } = await writeBrand(ctx, brand.id, async (db) => {
      const made = await insertCompetitor(db, brand.id, p);
      if (!made) throw competitorExists(p.name);
      return made;
    });
    return { ...result, reanalysis_queued };
  },
});

export const updateCompetitorOperation = operation({
  name: 'update-competitor',
  method: 'PATCH',
  path: '/competitors/:id',
  tool: 'update_competitor',
  idArg: 'competitor_id',
  write: true,
  destructive: true,
  idempotent: true,
  says: ['explicit-request'],
  errors: [notFound, exists],
  params: strictObject({
    id: competitorId,
    name: fields.name.optional(),
    domains: fields.domains.optional().describe('Replaces the competitor domains'),
    aliases: fields.aliases.optional().describe('Replaces the competitor aliases'),
  }),
  result: Competitor.extend({ reanalysis_queued: reanalysisQueuedField }),
  description:
    "Changes a competitor's name, domains or aliases (lists are replaced); the brand's stored answers " +
    `are analysed again (reanalysis_queued). ${AT_USER_REQUEST}`,
  run: async (ctx, p) => {
    const { id, ...change } = p;
    const brand = await competitorBrand(ctx.stores.pg, ctx.identity.organizationId, id);
    requireChange(change, ['name', 'domains', 'aliases']);
    const { result, reanalysis_queued } = await writeBrand(ctx, brand, (db) =>
      updateCompetitor(db, id.toLowerCase(), change),
    );
    return { ...result, reanalysis_queued };
  },
});

export const removeCompetitor = operation({
  name: 'remove-competitor',
  method: 'DELETE',
  path: '/competitors/:id',
  tool: 'remove_competitor',
  idArg: 'competitor_id',
  write: true,
  destructive: true,
  idempotent: true,
  says: ['explicit-request'],
  errors: [notFound],
  params: strictObject({ id: competitorId }),
  result: z.object({ id: z.string().uuid(), removed: z.literal(true), reanalysis_queued: reanalysisQueuedField }),
  description:
    'Removes a competitor from a brand. Its figures leave every report over all history once the ' +
    `brand's stored answers are analysed again (reanalysis_queued). ${AT_USER_REQUEST}`,
  run: async (ctx, p) => {
    const id = p.id.toLowerCase();
    const brand = await competitorBrand(ctx.stores.pg, ctx.identity.organizationId, id);
    const { reanalysis_queued } = await writeBrand(ctx, brand, (db) => deleteCompetitor(db, id));
    return { id, removed: true as const, reanalysis_queued };
  },
});

export const competitorOperations = [competitors, addCompetitor, updateCompetitorOperation, removeCompetitor];
