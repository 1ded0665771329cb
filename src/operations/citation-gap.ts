// The citation gap: domains the engines cite in answers naming a competitor and never in answers
// naming the brand (docs/api.md section 21; docs/metrics.md "Citation gap").
import { z } from 'zod';
import { operation } from './registry.ts';
import { limit, optionalUuid, topicFilters, topicNotFound } from './params.ts';
import { resolveFilters } from './analytics-filters.ts';
import { notFound } from '../errors.ts';
import { competitorsOf } from '../tenancy/brands.ts';
import { citationGap as gap, TOP_URLS } from '../analytics/citation-gap.ts';
import { COMPETITOR_NOT_FOUND } from './answers.ts';
import { Category } from './analytics-schemas.ts';
import { withAnalysisVersions } from './analysis-versions.ts';

const int = z.number().int();

export const CitationGap = z.object({
  totals: z.object({
    domains: int.describe('Gap domains in range'),
    answers: int.describe('Answers citing any gap domain'),
  }),
  domains: z
    .array(
      z.object({
        domain: z.string(),
        category: Category,
        competitor_answers: int.describe(
          'Answers citing the domain that name at least one competitor (that competitor, with competitor_id)',
        ),
        competitors: z
          .array(z.object({ competitor_id: z.string(), name: z.string(), answers: int }))
          .describe('Answers citing the domain that name each competitor, by answers descending then name'),
        top_urls: z
          .array(z.object({ url: z.string(), title: z.string(), answers: int }))
          .describe(`Up to ${TOP_URLS}: answers citing the URL that name a competitor, most first, then by URL`),
      }),
    )
    .describe('Domains never cited in an answer naming the brand, by competitor_answers descending then domain'),
});

export const citationGap = withAnalysisVersions(
  operation({
    name: 'citation-gap',
    method: 'GET',
    tool: 'get_citation_gap',
    metrics: true,
    errors: [topicNotFound, { status: 404, message: COMPETITOR_NOT_FOUND }],
    params: z.object({
      ...topicFilters,
      competitor_id: optionalUuid('competitor_id').describe(
        'Only answers naming this competitor (see list_competitors)',
      ),
      limit: limit(1, 200, 50).describe('Domains listed: 1-200, default 50'),
    }),
    result: CitationGap,
    description:
      "The citation gap: sources AI answers cite when they name a competitor and never when they name the brand, the first list to work from for earned media. Per domain: answers naming a competitor that cite it, by competitor, and its top URLs. Optionally for one competitor (competitor_id). The brand's own domains are left out. Dates are YYYY-MM-DD (UTC); omit both for all history.",
    run: async (ctx, p) => {
      const { brand, filters } = await resolveFilters(ctx, p);
      const competitors = await competitorsOf(ctx.stores.pg, brand.id);
      const competitorId = p.competitor_id?.toLowerCase();
      if (competitorId && !competitors.some((c) => c.id === competitorId)) throw notFound(COMPETITOR_NOT_FOUND);
      return ctx.cached(
        brand,
        ['citation-gap', filters, competitorId ?? null, p.limit],
        () => gap(ctx.stores.ch, filters, competitors, { competitorId, limit: p.limit }),
        filters.to,
      );
    },
  }),
);
