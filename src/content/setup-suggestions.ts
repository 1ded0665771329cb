// What a new brand's set-up page suggests (docs/app.md "Your first brand"): topics and prompts from
// built-in templates per kind of business with the category filled in, from imported keyword
// volumes that name the category, and, when LLM_BASE_URL is set, competitors, topics and prompts
// from the configured model (runtime/chat-completions.ts). Nothing here writes: the person adds
// each suggestion with one click, through the workspace operations.
import { z } from 'zod';
import type { Config } from '../config.ts';
import { chatJson } from '../runtime/chat-completions.ts';
import type { Postgres } from '../stores/postgres.ts';

export const BUSINESS_KINDS = [
  'software',
  'online_store',
  'local_service',
  'professional_service',
  'consumer_brand',
] as const;
export type BusinessKind = (typeof BUSINESS_KINDS)[number];

/** Each kind's topics and their prompts; `{category}` is what the brand sells, e.g. "trail running shoes". */
const TEMPLATES: Record<BusinessKind, { topic: string; prompts: string[] }[]> = {
  software: [
    {
      topic: '{category} comparisons',
      prompts: [
        'best {category} software',
        'top {category} tools for small businesses',
        '{category} software alternatives',
        'which {category} tool is easiest to use',
      ],
    },
    {
      topic: 'Buying {category}',
      prompts: [
        'how much does {category} software cost',
        'what to look for in a {category} tool',
        'is {category} software worth it for a startup',
      ],
    },
  ],
  online_store: [
    {
      topic: 'Best {category}',
      prompts: ['best {category} to buy online', 'top rated {category} brands', 'best {category} for beginners'],
    },
    {
      topic: 'Choosing {category}',
      prompts: [
        'how to choose {category}',
        'which {category} brand lasts the longest',
        'where to buy {category} online',
      ],
    },
  ],
  local_service: [
    {
      topic: '{category} near me',
      prompts: ['best {category} near me', 'top rated {category} in my city', 'how to find a reliable {category}'],
    },
    {
      topic: 'Hiring a {category}',
      prompts: ['how much does a {category} cost', 'questions to ask a {category} before hiring'],
    },
  ],
  professional_service: [
    {
      topic: 'Choosing a {category} provider',
      prompts: ['best {category} firms', 'top {category} agencies for startups', 'how to choose a {category} provider'],
    },
    {
      topic: '{category} cost and value',
      prompts: ['how much do {category} services cost', 'is hiring a {category} firm worth it'],
    },
  ],
  consumer_brand: [
    {
      topic: 'Best {category} brands',
      prompts: ['best {category} brands', 'most popular {category} brands', '{category} brands worth the money'],
    },
    {
      topic: '{category} reviews',
      prompts: ['which {category} brand has the best reviews', 'most sustainable {category} brands'],
    },
  ],
};

export type Source = 'template' | 'volumes' | 'model' | 'answers';

export interface PromptSuggestion {
  text: string;
  source: Source;
  /** Monthly search volume of the keyword it came from (imported volumes only). */
  volume: number | null;
}

export interface TopicSuggestion {
  name: string;
  source: Source;
  prompts: PromptSuggestion[];
}

const fill = (text: string, category: string) => text.replaceAll('{category}', category);

/** The kind's templates with the category filled in. */
export function templateSuggestions(kind: BusinessKind, category: string): TopicSuggestion[] {
  return TEMPLATES[kind].map((t) => {
    const name = fill(t.topic, category);
    return {
      name: name.charAt(0).toUpperCase() + name.slice(1),
      source: 'template' as const,
      prompts: t.prompts.map((p) => ({ text: fill(p, category), source: 'template' as const, volume: null })),
    };
  });
}

/** Imported keywords (answerscope volumes import) that hold every word of the category, most searched first. */
export async function volumeSuggestions(pg: Postgres, category: string, region: string): Promise<PromptSuggestion[]> {
  const words = category
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 1)
    .slice(0, 5);
  if (!words.length) return [];
  const { rows } = await pg.query<{ keyword: string; volume: number }>(
    `SELECT keyword, max(volume) AS volume FROM keyword_volumes
      WHERE (region = $2 OR region = '') AND lower(keyword) LIKE ALL ($1::text[])
      GROUP BY keyword ORDER BY max(volume) DESC, keyword LIMIT 10`,
    [words.map((w) => `%${w.replace(/[\\%_]/g, (c) => `\\${c}`)}%`), region],
  );
  return rows.map((r) => ({ text: r.keyword, source: 'volumes' as const, volume: Number(r.volume) }));
}

const ModelAnswer = z.object({
  competitors: z.array(z.object({ name: z.string().min(1).max(100), domain: z.string().max(200) })).max(10),
  topics: z
    .array(z.object({ name: z.string().min(1).max(100), prompts: z.array(z.string().min(3).max(300)).max(6) }))
    .max(5),
});

export interface ModelSuggestions {
  competitors: { name: string; domains: string[] }[];
  topics: TopicSuggestion[];
}

/** The configured model's competitors, topics and prompts for the brand; null without LLM_BASE_URL. */
export async function modelSuggestions(
  config: Config,
  brand: { name: string; domains: string[]; region: string },
  category: string,
): Promise<ModelSuggestions | null> {
  const { baseUrl, apiKey, model, timeoutMs } = config.llm;
  if (!baseUrl || !model) return null;
  const answer = await chatJson(
    { baseUrl, apiKey, model, timeoutMs },
    {
      name: 'brand_setup',
      schema: ModelAnswer,
      temperature: 0.3,
      messages: [
        {
          role: 'system',
          content:
            'You help a marketer track how AI assistants answer questions about their market. Answer with JSON ' +
            "only: the brand's main competitors (name and bare domain), and up to 5 topics, each with up to 6 " +
            'questions a buyer would ask an AI assistant. Questions must not name the brand.',
        },
        {
          role: 'user',
          content:
            `Brand: ${brand.name}\nWebsite: ${brand.domains.join(', ') || 'unknown'}\nCategory: ` +
            `${category || 'unknown'}\nRegion: ${brand.region || 'US'}`,
        },
      ],
    },
  );
  return {
    competitors: answer.competitors.map((c) => ({
      name: c.name.trim(),
      domains: c.domain.trim()
        ? [
            c.domain
              .trim()
              .toLowerCase()
              .replace(/^https?:\/\//, '')
              .replace(/\/.*$/, ''),
          ]
        : [],
    })),
    topics: answer.topics.map((t) => ({
      name: t.name.trim(),
      source: 'model' as const,
      prompts: t.prompts.map((p) => ({ text: p.trim(), source: 'model' as const, volume: null })),
    })),
  };
}
