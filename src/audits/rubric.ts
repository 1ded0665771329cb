// The audit rubric: the weight of each signal inside its category (categories.ts), and what to do
// about a signal that does not pass and why it matters. docs/audits.md explains every
// entry; a test checks that the docs name every key, so keep both in step.

import type { Category } from './categories.ts';

export interface RubricEntry {
  category: Category;
  /** Relative weight inside the category. */
  weight: number;
  fix: string;
  why: string;
}

const r = (category: Category, weight: number, fix: string, why: string): RubricEntry => ({
  category,
  weight,
  fix,
  why,
});

export const RUBRIC = {
  // Trust and technical access: can AI crawlers reach, read and trust the page?
  robots_ai_search: r(
    'technical',
    8,
    'Allow the AI search and answer crawlers (OAI-SearchBot, ChatGPT-User, Claude-SearchBot, PerplexityBot) in ' +
      'robots.txt.',
    'These bots fetch pages to answer and cite live questions; a blocked page cannot be cited in ChatGPT ' +
      'search, Claude or Perplexity answers.',
  ),
  robots_ai_training: r(
    'technical',
    2,
    'Decide deliberately which AI training crawlers (GPTBot, ClaudeBot, Google-Extended, CCBot, ...) may read ' +
      'the site, and allow those whose models you want to know your brand.',
    'Training crawlers shape what models know about your brand without a live search; blocking them is a ' +
      'legitimate choice that costs long-term visibility.',
  ),
  robots_search_engines: r(
    'technical',
    3,
    'Allow Googlebot and Bingbot in robots.txt.',
    'Google AI Overviews and AI Mode draw on the Google index, Microsoft Copilot and ChatGPT search partly on ' +
      'Bing: a page missing from these indexes is missing from their answers.',
  ),
  robots_txt: r(
    'technical',
    1,
    'Serve a plain-text /robots.txt (HTTP 200) with explicit rules and a Sitemap line.',
    'An unreachable robots.txt (5xx or timeout) makes careful crawlers treat the whole site as disallowed (RFC ' +
      '9309); a missing one gives them no sitemap pointer.',
  ),
  meta_robots: r(
    'technical',
    5,
    'Remove noindex, none, nosnippet and max-snippet:0 from the robots meta tag and the X-Robots-Tag header.',
    'noindex keeps the page out of the indexes AI answers use; nosnippet forbids quoting it, which AI Overviews ' +
      'honour.',
  ),
  llms_txt: r(
    'technical',
    1,
    'Publish /llms.txt: an H1 with the site name, a > summary line and ## sections listing your key pages as ' +
      'Markdown links.',
    'A small, clean map of the site for language models; cheap to add, read by some AI tools and agents.',
  ),
  sitemap: r(
    'technical',
    2,
    'Publish an XML sitemap that lists this page and point to it from robots.txt.',
    'Sitemaps help crawlers find and re-crawl pages; lastmod tells them what changed.',
  ),
  server_rendered_text: r(
    'technical',
    8,
    'Render the main content on the server (SSR or static generation) so it is in the HTML response.',
    'Most AI crawlers do not run JavaScript: text built in the browser is invisible to them.',
  ),
  response_time: r(
    'technical',
    2,
    'Bring the time to first byte under 600 ms (caching, CDN, lighter server work).',
    'AI answer bots fetch pages while the user waits and give up on slow ones.',
  ),
  https: r(
    'technical',
    3,
    'Serve the page over HTTPS and redirect HTTP to it.',
    'Plain HTTP is marked insecure, can be altered in transit and is a negative trust signal.',
  ),
  mixed_content: r(
    'technical',
    2,
    'Load every image, script, stylesheet and frame over HTTPS.',
    'HTTP resources on an HTTPS page are blocked or flagged by browsers and undermine trust.',
  ),
  redirects: r(
    'technical',
    1,
    'Link to the final URL directly; keep at most one redirect.',
    'Every hop costs crawl time and some bots stop following after a few.',
  ),
  canonical: r(
    'technical',
    2,
    'Add <link rel="canonical"> with this page\'s absolute URL.',
    'A canonical URL makes every copy of the page count as one and tells engines which URL to cite.',
  ),
  viewport: r(
    'technical',
    1,
    'Add <meta name="viewport" content="width=device-width, initial-scale=1">.',
    'Search engines index the mobile rendering; a page without a viewport is not mobile-friendly.',
  ),
  lang: r(
    'technical',
    1,
    'Declare the language on the html element, e.g. <html lang="en">.',
    "Engines answer in the user's language and use the declared language to pick sources.",
  ),
  charset: r(
    'technical',
    1,
    'Declare UTF-8 in the Content-Type header or with <meta charset="utf-8">.',
    'Without a declared encoding, crawlers guess and may garble quoted text.',
  ),
  page_weight: r(
    'technical',
    1,
    'Keep the HTML under 500 KB: move inline data, styles and scripts out of the document.',
    'Crawlers read a limited number of bytes; content past the cut-off is never seen.',
  ),
  contact_link: r(
    'technical',
    2,
    'Link to a contact page (or an email address or phone number) from every page.',
    'A reachable business is a basic trust signal for quality raters and for engines choosing sources.',
  ),
  privacy_link: r(
    'technical',
    1,
    'Link to your privacy policy from every page.',
    'A privacy policy is expected of a trustworthy site and required by law in many places.',
  ),
  terms_link: r(
    'technical',
    1,
    'Link to your terms (terms of service, conditions or legal notice) from every page.',
    'Published terms show an accountable operator behind the site.',
  ),

  // Structure and markup: can a machine tell what the page is and where each part is?
  title: r(
    'structure',
    3,
    'Write a unique, descriptive <title> of 10 to 65 characters.',
    'The title is the first thing engines read and often the label of the citation.',
  ),
  single_h1: r(
    'structure',
    3,
    "Use exactly one <h1> that states the page's topic.",
    'One H1 tells parsers what the page is about; none or several blurs it.',
  ),
  heading_hierarchy: r(
    'structure',
    2,
    'Structure the content with H2 and H3 sections without skipping levels.',
    'AI systems split pages into passages along headings; a clean outline gives clean, quotable passages.',
  ),
  meta_description: r(
    'structure',
    2,
    'Write a meta description of 70 to 160 characters that answers what the page offers.',
    'Engines show and reuse it as the summary of the page.',
  ),
  open_graph: r(
    'structure',
    1,
    'Add og:title, og:description, og:image and og:url.',
    'Open Graph gives every consumer (AI tools, chat apps, social networks) a ready summary and image.',
  ),
  lists_tables: r(
    'structure',
    2,
    'Present steps, options and comparisons as lists and tables (with header cells).',
    'Lists and tables are extracted cleanly and are favourite material for AI answers.',
  ),
  alt_text: r(
    'structure',
    1,
    'Give every meaningful image a short alt text describing it.',
    'Alt text is the only way a text model learns what an image shows.',
  ),
  json_ld_present: r(
    'structure',
    3,
    'Add schema.org structured data as JSON-LD.',
    'Structured data states facts (what, who, when, price) without the guesswork of parsing prose.',
  ),
  json_ld_valid: r(
    'structure',
    2,
    'Fix the JSON-LD so every block parses and each node has @context schema.org and an @type.',
    'Invalid JSON-LD is ignored entirely.',
  ),
  json_ld_type_fit: r(
    'structure',
    2,
    'Use the schema.org type that fits the page (Article, Product, FAQPage, Organization) with its key properties.',
    'The right type with its required properties is what makes the data usable.',
  ),
  faq_markup: r(
    'structure',
    2,
    'Mark up the questions and answers as FAQPage JSON-LD (and keep them visible on the page).',
    'Question-answer pairs map directly onto the questions people ask AI assistants.',
  ),
  breadcrumbs: r(
    'structure',
    1,
    'Add a breadcrumb trail with BreadcrumbList JSON-LD.',
    'Breadcrumbs show where the page sits in the site, which helps engines understand its scope.',
  ),
  semantic_html: r(
    'structure',
    1,
    'Use <main>, <article>, <header>, <nav> and <footer> instead of generic divs.',
    'Landmarks let parsers separate the content from the page chrome.',
  ),
  internal_links: r(
    'structure',
    2,
    'Link to at least three related pages of your own site with descriptive anchors.',
    'Internal links help crawlers discover pages and understand topical depth.',
  ),

  // Content: is there something clear, complete and quotable?
  word_count: r(
    'content',
    3,
    'Cover the topic fully: at least 600 words for an article, 300 for other pages.',
    'Thin pages rarely hold the specific facts an answer needs.',
  ),
  readability: r(
    'content',
    2,
    'Shorten sentences (about 20 words on average) and prefer plain words.',
    'Plain sentences are easier to extract and quote correctly.',
  ),
  direct_answer: r(
    'content',
    4,
    "Open with a 20 to 90 word paragraph that directly answers the page's main question.",
    'AI answers lift concise, self-contained statements, and mostly from the top of the page.',
  ),
  question_headings: r(
    'content',
    2,
    'Phrase some subheadings as the questions your audience asks.',
    'Question headings match the prompts people type into AI assistants.',
  ),
  paragraph_length: r(
    'content',
    2,
    'Keep paragraphs short (under about 100 words) and each about one idea.',
    'Short, focused passages are what retrieval systems pick and quote.',
  ),
  summary: r(
    'content',
    1,
    'Add a short summary or "Key takeaways" section to long pages.',
    'A summary is a ready-made answer for the whole page.',
  ),
  descriptive_links: r(
    'content',
    1,
    'Replace "click here" and "read more" with link text that names the target.',
    'Descriptive anchors tell crawlers what the linked page is about.',
  ),

  // Authority: is the content backed by evidence?
  authoritative_sources: r(
    'authority',
    3,
    'Cite and link primary, authoritative sources (government, academic, standards bodies, major publications).',
    'Linking to authoritative sources signals research and measurably raises how often AI engines cite a page.',
  ),
  citation_density: r(
    'authority',
    3,
    'Back claims with references: about one external source per 300 words.',
    'Cited claims are more trustworthy and more likely to be reused by engines that value verifiability.',
  ),
  statistics: r(
    'authority',
    3,
    'Add concrete figures (percentages, amounts, counts) with their source.',
    'Specific statistics are among the most quoted elements in AI answers.',
  ),
  quotations: r(
    'authority',
    1,
    'Quote named experts or sources, with attribution.',
    'Attributed quotations add credibility and quotable material.',
  ),
  same_as: r(
    'authority',
    1,
    'List your official profiles (Wikipedia, Wikidata, LinkedIn, ...) in sameAs on your Organization or Person data.',
    'sameAs links tie the site to a known entity, which engines use to resolve who you are.',
  ),

  // E-E-A-T: who wrote it, when, and who stands behind it?
  author_byline: r(
    'eeat',
    3,
    "Show the author's name with a link to an author page describing their expertise.",
    'Named, verifiable authors are a core expertise signal for engines and quality raters.',
  ),
  author_schema: r(
    'eeat',
    1,
    'Describe the author in JSON-LD as a Person with name and url (or sameAs).',
    'Structured author data lets engines connect the content to a known expert.',
  ),
  dates: r(
    'eeat',
    2,
    'Publish machine-readable dates: datePublished and dateModified in JSON-LD or article:published_time / ' +
      '<time datetime>.',
    'Engines prefer current sources and need a date to know how current a page is.',
  ),
  freshness: r(
    'eeat',
    2,
    'Review and update the page at least once a year, and update dateModified when you do.',
    'AI engines favour recently updated content, especially for fast-moving topics.',
  ),
  about_link: r(
    'eeat',
    1,
    'Link to an About page that explains who is behind the site.',
    'Knowing who publishes the content is the starting point of trust.',
  ),
  organization_schema: r(
    'eeat',
    2,
    "Add Organization JSON-LD with name, url and logo (as the page's publisher or on its own).",
    'It establishes the publishing entity behind the content.',
  ),
} satisfies Record<string, RubricEntry>;

export type SignalKey = keyof typeof RUBRIC;
export const SIGNAL_KEYS = Object.keys(RUBRIC) as SignalKey[];
