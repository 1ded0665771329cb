// Content: is there enough of it, is it plain, does it answer up front, and is it cut into
// passages an engine can lift (question headings, short paragraphs, a summary)?
import { words } from '../page.ts';
import { fail, graded, na, pass, plural, quote, warn, type AuditInput, type Signal } from './types.ts';

function wordCount(input: AuditInput): Signal {
  const { page } = input;
  const target = page.kind === 'article' ? 600 : 300;
  const n = page.mainWords;
  const seen =
    `${n} words in the main content (target ${target} ` +
    `for ${page.kind === 'article' ? 'an article' : page.kind === 'page' ? 'a page' : `a ${page.kind} page`}).`;
  return n < 50 ? fail('word_count', seen) : graded('word_count', Math.min(1, n / target), seen);
}

/** Syllables of an English word, by vowel groups (a standard approximation). */
export function syllables(word: string): number {
  const w = word.toLowerCase().replace(/[^a-z]/g, '');
  if (!w) return 0;
  if (w.length <= 3) return 1;
  const groups = w
    .replace(/(?:[^laeiouy]es|ed|[^laeiouy]e)$/, '')
    .replace(/^y/, '')
    .match(/[aeiouy]{1,2}/g);
  return Math.max(1, groups?.length ?? 1);
}

function readability(input: AuditInput): Signal {
  const { page } = input;
  // Prose is read from paragraphs when there are enough; headings and menus are not sentences.
  const prose = page.paragraphs.join('\n');
  const text = words(prose).length >= 50 ? prose : page.mainText;
  const sentences = text.split(/(?<=[.!?])\s+|\n+/).filter((s) => words(s).length >= 3);
  const ws = words(text);
  if (ws.length < 50 || sentences.length === 0)
    return na('readability', `Too little prose to judge (${plural(ws.length, 'word')}).`);
  const perSentence = ws.length / sentences.length;
  const english = (page.lang ?? 'en').toLowerCase().startsWith('en');
  if (english) {
    const perWord = ws.reduce((n, w) => n + syllables(w), 0) / ws.length;
    const flesch = 206.835 - 1.015 * perSentence - 84.6 * perWord;
    const seen =
      `Flesch reading ease ${flesch.toFixed(0)}, ${perSentence.toFixed(1)} words per sentence ` +
      `(${plural(sentences.length, 'sentence')}).`;
    return flesch >= 50
      ? pass('readability', seen)
      : flesch < 30
        ? fail('readability', seen)
        : warn('readability', 0.3 + (0.6 * (flesch - 30)) / 20, seen);
  }
  const seen =
    `${perSentence.toFixed(1)} words per sentence (${plural(sentences.length, 'sentence')}; ` +
    `language ${page.lang}).`;
  return perSentence <= 20
    ? pass('readability', seen)
    : perSentence > 28
      ? fail('readability', seen)
      : warn('readability', 0.5, seen);
}

function directAnswer(input: AuditInput): Signal {
  const { page } = input;
  const first = page.paragraphs.find((p) => words(p).length >= 12);
  if (!first) return fail('direct_answer', 'No paragraph of 12 or more words in the main content.');
  const at = page.mainText.indexOf(first.slice(0, 40));
  const before = at > 0 ? words(page.mainText.slice(0, at)).length : 0;
  const n = words(first).length;
  const seen = `First paragraph (${n} words, after ${plural(before, 'word')}): ${quote(first, 100)}.`;
  if (before > 150) return warn('direct_answer', 0.3, `${seen} It comes late: the answer should open the page.`);
  if (n >= 20 && n <= 90) return pass('direct_answer', seen);
  if (n < 20) return warn('direct_answer', 0.6, `${seen} Short for a self-contained answer.`);
  return warn('direct_answer', 0.5, `${seen} Long: put the answer in its first two sentences.`);
}

const QUESTION_START = /^(what|how|why|when|where|which|who|whom|whose|can|could|does|do|is|are|should|will|would)\b/i;

function questionHeadings(input: AuditInput): Signal {
  const subs = input.page.headings.filter((h) => h.level >= 2 && h.level <= 4 && h.text);
  if (subs.length < 2) return na('question_headings', `${plural(subs.length, 'subheading')}: too few to judge.`);
  const qs = subs.filter((h) => h.text.endsWith('?') || QUESTION_START.test(h.text));
  const seen =
    `${qs.length} of ${plural(subs.length, 'subheading')} phrased as ` +
    `questions${qs.length ? ` (e.g. ${quote(qs[0].text, 60)})` : ''}.`;
  return qs.length >= 2 || qs.length / subs.length >= 0.25
    ? pass('question_headings', seen)
    : warn('question_headings', qs.length ? 0.6 : 0.25, seen);
}

function paragraphLength(input: AuditInput): Signal {
  const lengths = input.page.paragraphs.map((p) => words(p).length).filter((n) => n >= 5);
  if (!lengths.length) return fail('paragraph_length', 'No <p> paragraphs in the main content.');
  const avg = lengths.reduce((a, b) => a + b, 0) / lengths.length;
  const max = Math.max(...lengths);
  const seen = `${plural(lengths.length, 'paragraph')}, ${avg.toFixed(0)} words on average, longest ${max}.`;
  if (avg <= 80 && max <= 150) return pass('paragraph_length', seen);
  return warn('paragraph_length', avg <= 120 ? 0.6 : 0.3, seen);
}

const SUMMARY = new RegExp(
  [
    'key takeaways?|summary|tl;?dr|in short|in brief|at a glance|the short answer',
    'bottom line|highlights|in a nutshell|conclusion',
  ].join('|'),
  'i',
);

function summary(input: AuditInput): Signal {
  const { page } = input;
  if (page.mainWords < 600) return na('summary', `Short page (${page.mainWords} words): no summary needed.`);
  const $ = page.$;
  const hit = $('h2,h3,h4,strong,b,dt,summary,p')
    .toArray()
    .map((el) => $(el).text().trim())
    .find((t) => t.length <= 60 && SUMMARY.test(t));
  return hit
    ? pass('summary', `Summary section: ${quote(hit, 60)}.`)
    : fail('summary', `No summary or key takeaways section in ${page.mainWords} words.`);
}

const GENERIC = new RegExp(
  `^(${[
    'click here|here|read more|more|learn more|this|link|this link|continue|go|details',
    'more info|find out more|see more|read on',
  ].join('|')})[.!…]*$`,
  'i',
);

function descriptiveLinks(input: AuditInput): Signal {
  const texts = input.page.links.filter((l) => l.url).map((l) => l.text);
  if (!texts.length) return na('descriptive_links', 'No links.');
  const generic = texts.filter((t) => t === '' || GENERIC.test(t));
  const ratio = generic.length / texts.length;
  const examples = [...new Set(generic.map((t) => (t ? `"${t}"` : '(no text)')))].slice(0, 3).join(', ');
  const seen =
    `${generic.length} of ${plural(texts.length, 'link')} use generic or empty ` +
    `text${generic.length ? ` (${examples})` : ''}.`;
  return ratio <= 0.1
    ? pass('descriptive_links', seen)
    : ratio > 0.3
      ? fail('descriptive_links', seen)
      : warn('descriptive_links', 0.5, seen);
}

export function contentSignals(input: AuditInput): Signal[] {
  return [
    wordCount(input),
    readability(input),
    directAnswer(input),
    questionHeadings(input),
    paragraphLength(input),
    summary(input),
    descriptiveLinks(input),
  ];
}
