// The citation gap: the sources of the gap answers, those naming a competitor and not the brand
// (docs/api.md section 24, replacing section 21's definition; docs/metrics.md "Citation gap").
import { z } from 'zod';
import { operation } from './registry.ts';
import { limit, optionalUuid, topicFilters, topicNotFound, sourceUnknown } from './params.ts';
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
    answers: int.describe('Answers in range (shopping answers excluded)'),
    gap_answers: int.describe(
      'Gap answers in range, citing or not: naming at least one competitor (that competitor, with ' +
        'competitor_id) and not the brand',
    ),
    domains: int.describe('Domains listed before limit: those cited by at least one gap answer'),
  }),
  domains: z
    .array(
      z.object({
        domain: z.string(),
        category: Category,
        gap_answers: int.describe('Gap answers citing the domain'),
        brand_answers: int.describe('Answers naming the brand citing the domain'),
        gap_share: z.number().describe('gap_answers / (gap_answers + brand_answers) x 100, 1 decimal'),
        competitors: z
          .array(z.object({ competitor_id: z.string(), name: z.string(), answers: int }))
          .describe(
            'Gap answers citing the domain that name each competitor (with competitor_id, that one only), by ' +
              'answers descending then name',
          ),
        top_urls: z
          .array(z.object({ url: z.string(), title: z.string(), gap_answers: int }))
          .describe(`Up to ${TOP_URLS}: gap answers citing the URL, most first, then by URL`),
      }),
    )
    .describe('Domains cited by at least one gap answer, by gap_answers descending then domain, up to limit'),
});

export const citationGap = withAnalysisVersions(
  operation({
    name: 'citation-gap',
    method: 'GET',
    tool: 'get_citation_gap',
    metrics: true,
    errors: [topicNotFound, sourceUnknown, { status: 404, message: COMPETITOR_NOT_FOUND }],
    params: z.object({
      ...topicFilters,
      competitor_id: optionalUuid('competitor_id').describe(
        'Only answers naming this competitor (see list_competitors)',
      ),
      limit: limit(1, 200, 50).describe('Domains listed: 1-200, default 50'),
    }),
    result: CitationGap,
    description:
      'The citation gap: the sources of the gap answers, those that name a competitor and not the brand, the ' +
      'first list to work from for earned media. Per domain: gap answers citing it, answers naming the brand ' +
      'citing it, the gap share, the competitors named and its top URLs; totals of answers and gap answers in ' +
      "range. Optionally for one competitor (competitor_id). The brand's own domains and shopping answers are " +
      'left out. Dates are YYYY-MM-DD (UTC); omit both for all history.',
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
