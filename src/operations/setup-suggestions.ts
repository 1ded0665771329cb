// A new brand's set-up page (docs/app.md "Your first brand"): competitors, topics and prompts to add
// with one click, each saying where it came from.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, optionalOneOf, optionalText } from './params.ts';
import { ChatCompletionError } from '../runtime/chat-completions.ts';
import {
  BUSINESS_KINDS,
  modelSuggestions,
  templateSuggestions,
  volumeSuggestions,
  type TopicSuggestion,
} from '../content/setup-suggestions.ts';
import { brandEntities, competitorsOf } from '../tenancy/brands.ts';
import { untrackedBrands } from '../analytics/untracked-brands.ts';
import { addDays, isoDay } from '../instant.ts';

/** How far back the answers are read for brands they name that are not tracked. */
const ANSWER_DAYS = 30;

const SourceEnum = z.enum(['template', 'volumes', 'model', 'answers']);
const Prompt = z.object({ text: z.string(), source: SourceEnum, volume: z.number().int().nullable() });

export const setupSuggestions = operation({
  name: 'setup-suggestions',
  method: 'GET',
  params: z.object({
    brand_id: brandId,
    kind: optionalOneOf('kind', BUSINESS_KINDS).describe('The kind of business; default software'),
    category: optionalText('category', 100).describe(
      'What the brand sells, e.g. trail running shoes; default its industry',
    ),
  }),
  result: z.object({
    kind: z.enum(BUSINESS_KINDS),
    category: z.string(),
    competitors: z.array(z.object({ name: z.string(), domains: z.array(z.string()), source: SourceEnum })),
    topics: z.array(z.object({ name: z.string(), source: SourceEnum, prompts: z.array(Prompt) })),
    volumes: z.array(Prompt).describe('Imported keywords that name the category, most searched first'),
    model: z.object({
      configured: z.boolean().describe('Whether LLM_BASE_URL is set'),
      error: z.string().nullable().describe("Why the model's suggestions are missing, when it failed"),
    }),
  }),
  description:
    "Suggestions for a new brand's set-up, to add one by one: competitors the brand's answers of the last 30 " +
    'days name most without tracking them (as untracked-brands counts them), topics and prompts from built-in ' +
    'templates per kind of business with the category filled in, imported keyword volumes naming the category, ' +
    'and competitors, topics and prompts from the configured model when LLM_BASE_URL is set. Competitors ' +
    'already tracked are left out. Creates nothing.',
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const kind = p.kind ?? 'software';
    const category = (p.category ?? brand.industry ?? '').trim();
    const tracked = new Set((await competitorsOf(ctx.stores.pg, brand.id)).map((c) => c.name.toLowerCase()));
    let model: Awaited<ReturnType<typeof modelSuggestions>> = null;
    let error: string | null = null;
    try {
      model = await modelSuggestions(ctx.config, brand, category);
    } catch (err) {
      if (!(err instanceof ChatCompletionError)) throw err;
      error = `The model gave no suggestions: ${err.message}`;
    }
    // Once answers exist, the brands they name most that are not tracked (the untracked-brands figure).
    const today = isoDay(ctx.now());
    const from = new Date(`${addDays(today, -(ANSWER_DAYS - 1))}T00:00:00Z`);
    const forms = (await brandEntities(ctx.stores.pg, brand)).flatMap((e) => [e.name, ...e.aliases]);
    const named = await untrackedBrands(
      ctx.stores.ch,
      { brandId: brand.id, generation: brand.analysis_generation, from, to: ctx.now() },
      forms,
    );
    const topics: TopicSuggestion[] = [
      ...(category ? templateSuggestions(kind, category) : []),
      ...(model?.topics ?? []),
    ];
    return {
      kind,
      category,
      competitors: [
        ...named.slice(0, 10).map((b) => ({ name: b.name, domains: [] as string[], source: 'answers' as const })),
        ...(model?.competitors ?? [])
          .filter((c) => c.name.toLowerCase() !== brand.name.toLowerCase() && !tracked.has(c.name.toLowerCase()))
          .filter((c) => !named.some((b) => b.name.toLowerCase() === c.name.toLowerCase()))
          .map((c) => ({ ...c, source: 'model' as const })),
      ],
      topics,
      volumes: category ? await volumeSuggestions(ctx.stores.pg, category, brand.region || 'US') : [],
      model: { configured: Boolean(ctx.config.llm.baseUrl), error },
    };
  },
});
