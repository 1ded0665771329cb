// The shapes of a content brief and a content draft (docs/api.md section 23, "Content brief", "Content draft").
// Every generator's output is parsed with these before it is saved or returned.
import { z } from 'zod';
import { isArticleWithFaqJsonLd } from './jsonld.ts';

export const CONTENT_TYPES = ['comparison', 'listicle', 'how_to', 'guide', 'review', 'faq'] as const;
export type ContentType = (typeof CONTENT_TYPES)[number];

const line = (max: number) => z.string().trim().min(1).max(max);

export const Brief = z.strictObject({
  suggestedTitle: line(200),
  contentType: z.enum(CONTENT_TYPES),
  targetWordCount: z.number().int().min(300).max(10_000),
  outline: z.array(line(300)).min(3).max(20).describe('Section headings in reading order, each with what it covers'),
  targetKeywords: z.array(line(120)).min(1).max(20),
  competitorInsights: line(4000),
  callToAction: line(1000),
});
export type Brief = z.infer<typeof Brief>;

export const Faq = z.strictObject({ question: line(300), answer: line(2000) });

/** What a generator writes; the JSON-LD is built from it (jsonld.ts), never written by a model. */
export const DraftBody = z.strictObject({
  title: line(200),
  metaTitle: line(70),
  metaDescription: line(170),
  slug: z
    .string()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'slug must be lower-case words joined by dashes')
    .max(120),
  contentHtml: z.string().trim().min(200).max(100_000),
  faqs: z.array(Faq).min(1).max(12),
  keyTakeaways: z.array(line(400)).min(1).max(10),
});
export type DraftBody = z.infer<typeof DraftBody>;

export const Draft = DraftBody.extend({
  structuredDataJsonLd: z
    .string()
    .refine(isArticleWithFaqJsonLd, 'structuredDataJsonLd must be JSON-LD with an Article and a FAQPage'),
});
export type Draft = z.infer<typeof Draft>;
