// The agreement report of answers imported from another tracker (docs/api.md, docs/metrics.md
// "Agreement with another tracker"): how the tool's readings of its answers compare with
// Answerscope's readings of the same answers. The import itself is `answerscope import-tracker`.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, limit, SOURCE_INVALID, text } from './params.ts';
import { badRequest } from '../errors.ts';
import { importAgreement } from '../analytics/import-agreement.ts';
import { SOURCE_SLUG } from '../tracking/types.ts';

const pct = z.number().nullable();
const yesNo = z.object({
  answers: z.number().int().describe('Answers both read'),
  tool: pct.describe("The tool's figure: percent of those answers it read yes"),
  answerscope: pct.describe("Answerscope's figure on the same answers"),
  agreement_pct: pct.describe('Percent of the answers read alike'),
  kappa: pct.describe("Cohen's kappa, 3 decimals; null when both read every answer the same way"),
});
const readings = z.object({
  mentioned: z.boolean().nullable(),
  position: z.number().int().nullable(),
  sentiment: z.enum(['positive', 'neutral', 'negative']).nullable(),
  cited: z.boolean().nullable(),
});

export const ImportAgreement = z.object({
  source: z.string(),
  answers: z.number().int().describe('Answers imported from the source for the brand'),
  readings: z.object({
    mentioned: yesNo,
    position: z.object({
      answers: z.number().int().describe('Answers where both gave the brand a position'),
      tool: pct.describe("The tool's mean position"),
      answerscope: pct.describe("Answerscope's mean position on the same answers"),
      mean_absolute_difference: pct,
    }),
    sentiment: z.object({
      answers: z.number().int().describe('Answers where both judged the brand'),
      tool: pct.describe('Percent of them the tool read positive'),
      answerscope: pct.describe('Percent of them Answerscope read positive'),
      agreement_pct: pct,
    }),
    cited: yesNo,
  }),
  disagreements_total: z.number().int(),
  disagreements: z
    .array(
      z.object({
        answer_id: z.string().uuid(),
        line: z.number().int().describe("The answer's line in the imported file"),
        prompt_id: z.string().uuid(),
        platform: z.string(),
        collected_at: z.string(),
        differ: z.array(z.enum(['mentioned', 'position', 'sentiment', 'cited'])),
        tool: readings,
        answerscope: readings,
      }),
    )
    .describe('Answers where a reading differs, with both readings, oldest first (at most limit)'),
});

export const importAgreementOperation = operation({
  name: 'import-agreement',
  method: 'GET',
  tool: 'get_import_agreement',
  metrics: true,
  errors: [{ status: 400, message: SOURCE_INVALID }],
  params: z.object({
    brand_id: brandId,
    source: text('source', 40).describe('The tool the answers were imported from, as given to --format'),
    limit: limit(1, 1000, 100).describe('Disagreeing answers listed, 1-1000, default 100'),
  }),
  result: ImportAgreement,
  description:
    "How another tracker's readings of the answers imported from it (answerscope import-tracker) agree with " +
    "Answerscope's readings of the same answers: per reading (mentioned, position, sentiment, cited) both " +
    "figures, agreement percent, Cohen's kappa for mentioned and cited, the mean absolute position difference, " +
    'and the answers where they differ with both readings.',
  run: async (ctx, p) => {
    if (!SOURCE_SLUG.test(p.source)) throw badRequest(SOURCE_INVALID);
    const brand = await ctx.brand(p.brand_id);
    return importAgreement(ctx.stores.pg, brand.id, p.source, p.limit);
  },
});
