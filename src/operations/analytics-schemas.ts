// Response schemas of the analytics operations (docs/api.md section 23, "Resources and their fields"); they are
// the MCP output schemas and the OpenAPI document's, so their descriptions speak to readers.
import { z } from 'zod';

const num = z.number();
const nullableNum = z.number().nullable();
const int = z.number().int();

export const VisibilitySummary = z.object({
  brand: z.object({ id: z.string(), name: z.string() }),
  totals: z.object({
    resultCount: int.describe('Answers in range (shopping answers excluded)'),
    avgVisibility: nullableNum.describe('Mean per-answer visibility score, 0-100, 1 decimal'),
    totalMentions: int,
    totalCitations: int,
    aiVisibilityScore: nullableNum.describe(
      '100 x (0.6 mention rate + 0.25 citation rate + 0.15 position factor), 1 decimal; null without answers',
    ),
    mentionAnswers: int.describe('Answers that name the brand'),
    citationAnswers: int.describe('Answers that cite the brand'),
    positionFactor: nullableNum.describe(
      'Mean of 1/position over answers naming the brand, 3 decimals; null if never named',
    ),
  }),
  topCompetitors: z
    .array(
      z.object({
        name: z.string(),
        mentions: int,
        avgVisibility: nullableNum,
        score: nullableNum.describe("The competitor's visibility score over the same answers"),
      }),
    )
    .describe('Up to 5 competitors by mentions'),
});

export const VisibilityTrend = z.object({
  granularity: z.enum(['day', 'week']),
  buckets: z.array(
    z.object({
      date: z.string().describe('UTC day, or the Monday starting the ISO week'),
      result_count: int,
      avg_visibility_score: int.describe('Rounded mean per-answer score'),
      ai_visibility_score: nullableNum.describe('Daily score with a damped position factor; null for weeks'),
      total_mentions: int,
      total_citations: int,
      avg_competitor_score: z
        .number()
        .int()
        .nullable()
        .describe('Rounded mean competitor score where named or cited; null when none appeared'),
    }),
  ),
});

const Figures = {
  avg_visibility_score: nullableNum,
  ai_visibility_score: nullableNum,
  total_mentions: int,
  total_citations: int,
  appearance_count: int.describe('Answers that name the entity'),
};

export const CompetitorComparison = z.object({
  brand: z.object({ id: z.string(), name: z.string(), ...Figures }),
  platforms: z
    .array(
      z.object({
        platform: z.string(),
        answers: int.describe("The platform's answers in range"),
        mention_rates: z
          .record(z.string(), num)
          .describe(
            'Entity id (the brand and each competitor) to the share of those answers naming it, in %, 1 decimal',
          ),
      }),
    )
    .describe('Mention rate per platform of the brand and each tracked competitor, over the same answers'),
  competitors: z.array(z.object({ competitor_id: z.string(), name: z.string(), ...Figures })),
  share_of_voice: z.object({
    overall_sov_pct: num.describe('Brand mentions / (brand + competitor mentions) x 100, 1 decimal'),
    total_brand_mentions: int,
    total_competitor_mentions: int,
    by_platform: z.array(
      z.object({
        model_used: z.string().describe('Use these values in the model filter'),
        platform: z.string(),
        brand_mentions: int,
        competitor_mentions: int,
        sov_pct: num,
      }),
    ),
  }),
});

export const Category = z.enum([
  'you',
  'competitor',
  'editorial',
  'forum',
  'social',
  'review',
  'institutional',
  'other',
]);

export const Citations = z.object({
  totals: z.object({
    domains: int,
    urls: int,
    citations: int,
    results_with_citations: int,
    avg_citations_per_result: nullableNum.describe('Citations per answer, 2 decimals; null without answers'),
  }),
  source_type_breakdown: z.array(
    z.object({ category: Category, count: int.describe('Domains in the category'), pct: num }),
  ),
  top_domains: z.array(
    z.object({
      domain: z.string(),
      category: Category,
      total_citations: int,
      results_citing: int,
      usage_pct: num.describe('Share of answers citing the domain, 1 decimal'),
      models: z.array(z.string()),
      article_types: z.array(z.object({ type: z.string(), count: int })).describe('Up to three'),
    }),
  ),
  top_urls: z.array(
    z.object({
      url: z.string(),
      domain: z.string(),
      category: Category,
      title: z.string(),
      total_citations: int,
      results_citing: int,
      usage_pct: num,
      article_type: z.string(),
    }),
  ),
});

export const PromptPerformance = z.object({
  brand: z.object({ id: z.string(), name: z.string() }),
  window: z.object({ dateFrom: z.string().nullable(), dateTo: z.string().nullable() }),
  prompts: z.array(
    z.object({
      prompt_id: z.string(),
      prompt_text: z.string(),
      topic_name: z.string().nullable(),
      result_count: int,
      avg_visibility: nullableNum,
      total_mentions: int,
      total_citations: int,
      avg_competitor_score: nullableNum.describe(
        "The seed's figure: competitors' mean score over only the answers naming or citing them (not " +
          'comparable with avg_visibility)',
      ),
      ai_visibility_score: nullableNum.describe("The brand's AI visibility score over the prompt's answers, 1 decimal"),
      mention_rate: nullableNum.describe("Share of the prompt's answers naming the brand, %, 1 decimal"),
      best_competitor: z
        .object({
          competitor_id: z.string(),
          name: z.string(),
          ai_visibility_score: nullableNum,
          mention_rate: nullableNum,
        })
        .nullable()
        .describe(
          'The competitor with the highest AI visibility score over the same answers (ties by name), with its ' +
            'mention rate; null when none is named or cited',
        ),
    }),
  ),
});

export const ShoppingCard = z.object({
  id: z.string(),
  prompt_result_id: z.string(),
  brand_id: z.string(),
  position: int,
  product_title: z.string(),
  product_brand: z.string(),
  price_amount: nullableNum,
  price_currency: z.string().nullable(),
  image_url: z.string().nullable(),
  merchant_url: z.string().nullable(),
  merchant_domain: z.string().nullable(),
  rating: nullableNum,
  review_count: z.number().int().nullable(),
  raw: z.record(z.string(), z.unknown()),
  matched_brand_id: z.string().nullable(),
  matched_brand_role: z.enum(['own', 'competitor', 'other']),
  platform: z.string(),
  region: z.string(),
  created_at: z.string(),
});

export const ShoppingCards = z.object({
  cards: z.array(ShoppingCard),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
});

// Each count's key is written out (not computed), so the type names it and the app's pages read it by name.
export const ProductVisibility = z.object({
  product_title: z.string(),
  total_appearances: int,
  by_platform: z.array(z.object({ platform: z.string(), count: int })),
  by_region: z.array(z.object({ region: z.string(), count: int })),
  by_date: z.array(z.object({ date: z.string(), count: int })),
  latest_appearance: z.string(),
  average_rating: nullableNum,
  total_reviews: int,
  merchant_domains: z.array(z.object({ domain: z.string(), count: int })),
});
