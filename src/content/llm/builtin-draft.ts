// The built-in draft: follows the saved brief's outline section by section and writes what the
// tracking facts support (who comes up for the question, which sources are cited, how to choose).
// Facts it cannot know (a product's pricing, features, limits) are left as visible editor notes
// instead of being invented.
import { andList, capitalize } from '../keywords.ts';
import type { Brief, DraftBody } from '../schemas.ts';
import type { GenerationInput } from './generator-types.ts';
import { clip, factsOf, topicTitle, type Facts } from './facts.ts';
import { OUTLINE_SEPARATOR, plan } from './builtin-brief.ts';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const p = (html: string) => `<p>${html}</p>`;
const note = (text: string) => `<p class="editor-note"><strong>Editor:</strong> ${esc(text)}</p>`;
const link = (url: string, text: string) =>
  /^https?:\/\//.test(url) ? `<a href="${esc(url)}">${esc(text)}</a>` : esc(text);

export function slugify(s: string, max = 80): string {
  const slug = s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return clip(slug.replace(/-/g, ' '), max).replace(/ /g, '-') || 'article';
}

const names = (f: Facts) => [f.brand, ...f.rivals.slice(0, 4).map((r) => r.name)];
const rivalNames = (f: Facts) => f.rivals.slice(0, 4).map((r) => r.name);
const sourceNames = (f: Facts, n = 3) => f.sources.slice(0, n).map((s) => s.domain);
const siteLink = (f: Facts) => (f.domain ? ` (${link(`https://${f.domain}`, f.domain)})` : '');

const CRITERIA: [string, string][] = [
  ['Fit for the job', 'whether it covers what you need, out of the box, without workarounds.'],
  ['Total cost', 'the plan you will actually need, per seat or per use, plus add-ons and migration.'],
  ['Time to set up', 'how long until the team gets value, and what moving your data takes.'],
  ['Integrations', 'whether it works with the tools you already use.'],
  ['Support and reliability', 'who helps when something breaks, and how fast.'],
  ['Independent evidence', 'what reviewers, communities and experts say about it.'],
];

function section(key: string, f: Facts): string {
  if (key === 'answer') {
    const rivals = rivalNames(f);
    return [
      p(
        `There is no single right answer to “${esc(f.prompt)}” for every team. ${
          rivals.length
            ? `The ${rivals.length === 1 ? 'name that comes up most often for this question is' : 'names that come up most often for this question are'} ${esc(andList(rivals))}; ${esc(f.brand)} is an option too.`
            : `${esc(f.brand)} is one of the options.`
        } Choose on fit for your use case, total cost and time to set up, and check independent reviews before you commit.`,
      ),
      note(`State in one sentence who ${f.brand} is best for, with one concrete fact that proves it.`),
    ].join('\n');
  }
  if (key === 'criteria') {
    return `${p(`The right choice for ${esc(f.subject)} comes down to a few questions:`)}\n<ul>\n${CRITERIA.map(
      ([k, v]) => `<li><strong>${k}:</strong> ${v}</li>`,
    ).join('\n')}\n</ul>`;
  }
  if (key === 'steps') {
    return `<ol>\n${[
      'Write down the goal and the must-haves.',
      `Shortlist ${andList(names(f))} and check each against the criteria above.`,
      'Try the shortlist on one real task with the people who will use it.',
      'Compare the total cost for your team size over a year.',
      'Decide, then plan the roll-out and the data you need to move.',
    ]
      .map((s) => `<li>${esc(s)}</li>`)
      .join('\n')}\n</ol>\n${note(`Add where ${f.brand} shortens these steps, with a concrete example.`)}`;
  }
  if (key === `option:${f.brand}`) {
    return [
      p(`${esc(f.brand)}${siteLink(f)} is one of the options for ${esc(f.subject)}.`),
      note(
        `Add what ${f.brand} offers for ${f.subject}: pricing model, two or three standout capabilities, honest limits and the kind of team it suits, each with a source or figure.`,
      ),
    ].join('\n');
  }
  if (key.startsWith('option:')) {
    const r = f.rivals.find((x) => `option:${x.name}` === key);
    if (!r) return '';
    return [
      p(
        `${esc(r.name)} comes up in ${r.named} of the ${f.answers} AI answers we tracked for this question${r.cited ? `, and its pages are cited in ${r.cited}` : ''}.`,
      ),
      note(
        `Describe ${r.name} fairly from its current website and independent reviews: strengths, limits and who it suits.`,
      ),
    ].join('\n');
  }
  if (key === 'table') {
    const head = ['Option', 'Best for', 'Pricing model', 'Setup time', 'Integrations'];
    const rows = names(f).map(
      (n) =>
        `<tr><th scope="row">${esc(n)}</th>${head
          .slice(1)
          .map(() => '<td>to confirm</td>')
          .join('')}</tr>`,
    );
    return [
      note("Fill each cell from the vendors' current pricing and documentation pages, and date the table."),
      `<table>\n<thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody>\n</table>`,
    ].join('\n');
  }
  if (key === 'sources') {
    const items = f.pages.length
      ? f.pages.slice(0, 5).map((pg) => `<li>${link(pg.url, pg.title || pg.url)} (${esc(pg.domain)})</li>`)
      : f.sources.slice(0, 5).map((s) => `<li>${link(`https://${s.domain}`, s.domain)}</li>`);
    return [
      p('These independent pages are among the sources cited most often for this question:'),
      `<ul>\n${items.join('\n')}\n</ul>`,
      p(`Read them alongside this page: they show how reviewers and users judge ${esc(andList(names(f)))}.`),
    ].join('\n');
  }
  if (key === 'faq')
    return faqs(f)
      .map((q) => `<h3>${esc(q.question)}</h3>\n${p(esc(q.answer))}`)
      .join('\n');
  if (key === 'next') {
    return f.type === 'owned' && f.domain
      ? p(
          `Want to see whether ${esc(f.brand)} fits? ${link(`https://${f.domain}`, `Visit ${f.domain}`)} to start a trial, book a demo or compare plans.`,
        )
      : p(`Learn more about ${esc(f.brand)}${f.domain ? ` at ${link(`https://${f.domain}`, f.domain)}` : ''}.`);
  }
  return '';
}

/** A prompt already phrased as a question is asked as it is. */
const QUESTION = /^\s*(what|which|how|who|why|where|when|is|are|can|should|do|does|will|would)\b/i;

export function faqs(f: Facts): { question: string; answer: string }[] {
  const list = [
    {
      question: QUESTION.test(f.prompt)
        ? `${clip(capitalize(f.prompt.replace(/[?!.]+$/, '')), 290)}?`
        : clip(`Which ${f.subject} is best?`, 300),
      answer: `It depends on your use case and budget. ${f.rivals.length ? `The options that come up most often are ${andList(names(f))}. ` : ''}Compare them on fit, total cost, setup time, integrations and support, and check independent reviews${f.sources.length ? ` such as ${andList(sourceNames(f))}` : ''}.`,
    },
  ];
  if (f.rivals.length) {
    list.push({
      question: `How does ${f.brand} compare with ${f.rivals[0].name}?`,
      answer: `Both are options for ${f.subject}. Set them side by side on the same criteria (fit, total cost, setup time, integrations, support); the better choice depends on your use case, your budget and the tools you already use.`,
    });
  }
  list.push({
    question: 'What matters most when choosing?',
    answer:
      'Fit for your use case, the total cost of the plan you will actually need, time to set up, integrations with the tools you already use, support, and what independent reviewers say.',
  });
  if (f.sources.length) {
    list.push({
      question: 'Where can I find independent reviews?',
      answer: `Start with ${andList(sourceNames(f))}: they are among the sources cited most often for this question.`,
    });
  }
  return list;
}

function keyTakeaways(f: Facts): string[] {
  const list = [`For ${f.subject}, compare the options on fit, total cost, setup time, integrations and support.`];
  if (f.rivals.length) list.push(`${andList(names(f))} are the options that come up most often for this question.`);
  if (f.sources.length)
    list.push(
      `Independent sources such as ${andList(sourceNames(f))} shape which options get recommended: check them before deciding.`,
    );
  list.push(
    `${f.brand} is worth a look${f.domain ? ` at ${f.domain}` : ''}: judge it on the same criteria as the rest.`,
  );
  return list.map((t) => clip(t, 400));
}

export function builtinDraft(input: GenerationInput, brief: Brief): DraftBody {
  const f = factsOf(input);
  const known = new Map(plan(f).map((s) => [s.heading, s.key]));
  const body = brief.outline.map((line) => {
    const at = line.indexOf(OUTLINE_SEPARATOR);
    const heading = at >= 0 ? line.slice(0, at) : line;
    const covers = at >= 0 ? line.slice(at + OUTLINE_SEPARATOR.length) : '';
    const key = known.get(heading);
    const html = key ? section(key, f) : '';
    // A section this generator cannot write from the facts (a brief from elsewhere) stays a note.
    return `<h2>${esc(heading)}</h2>\n${html || note(`Write this section: ${covers || heading}`)}`;
  });
  const title = brief.suggestedTitle;
  return {
    title,
    metaTitle: clip(title, 60),
    metaDescription: clip(
      f.rivals.length
        ? `${topicTitle(f)}: how ${andList(names(f))} compare on fit, cost, setup, integrations and support, with answers to common questions.`
        : `${topicTitle(f)}: what to look for, where ${f.brand} fits, and answers to common questions.`,
      155,
    ),
    slug: slugify(f.core),
    contentHtml: `<article>\n<h1>${esc(title)}</h1>\n${body.join('\n')}\n</article>`,
    faqs: faqs(f),
    keyTakeaways: keyTakeaways(f),
  };
}
