// biome-ignore-all lint/suspicious/noExplicitAny: parsed JSON-LD, read field by field and checked where used
// The draft's structured data: one JSON-LD document (schema.org) holding an Article and a FAQPage
// for its FAQs. Built from the draft's own fields, so it always says what the page says.

export interface JsonLdInput {
  title: string;
  metaDescription: string;
  slug: string;
  keywords: string[];
  faqs: { question: string; answer: string }[];
  publisher: { name: string; domain?: string };
}

/** Text only: schema.org answers may hold HTML, but plain text is what every consumer reads. */
const plain = (s: string) =>
  s
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

export function buildJsonLd(d: JsonLdInput): string {
  const site = d.publisher.domain ? `https://${d.publisher.domain}` : undefined;
  const page = site ? `${site}/${d.slug}` : undefined;
  const organization = { '@type': 'Organization', name: d.publisher.name, ...(site ? { url: site } : {}) };
  const doc = {
    '@context': 'https://schema.org',
    '@graph': [
      {
        '@type': 'Article',
        ...(page ? { '@id': `${page}#article`, mainEntityOfPage: page } : {}),
        // Google shows at most 110 characters of a headline.
        headline: d.title.slice(0, 110),
        description: d.metaDescription,
        keywords: d.keywords.join(', '),
        author: organization,
        publisher: organization,
      },
      {
        '@type': 'FAQPage',
        ...(page ? { '@id': `${page}#faq` } : {}),
        mainEntity: d.faqs.map((f) => ({
          '@type': 'Question',
          name: plain(f.question),
          acceptedAnswer: { '@type': 'Answer', text: plain(f.answer) },
        })),
      },
    ],
  };
  return JSON.stringify(doc);
}

/** True for a JSON-LD string whose graph holds an Article and a FAQPage of answered Questions. */
export function isArticleWithFaqJsonLd(text: string): boolean {
  let doc: any;
  try {
    doc = JSON.parse(text);
  } catch {
    return false;
  }
  if (!doc || typeof doc !== 'object' || !/^https?:\/\/schema\.org\/?$/.test(String(doc['@context']))) return false;
  const nodes: any[] = Array.isArray(doc['@graph']) ? doc['@graph'] : [doc];
  const article = nodes.find((n) => n?.['@type'] === 'Article');
  const faq = nodes.find((n) => n?.['@type'] === 'FAQPage');
  if (!article || typeof article.headline !== 'string' || !article.headline) return false;
  if (!faq || !Array.isArray(faq.mainEntity) || !faq.mainEntity.length) return false;
  return faq.mainEntity.every(
    (q: any) =>
      q?.['@type'] === 'Question' &&
      typeof q.name === 'string' &&
      q.name &&
      q.acceptedAnswer?.['@type'] === 'Answer' &&
      typeof q.acceptedAnswer.text === 'string' &&
      q.acceptedAnswer.text,
  );
}
