// Words and phrases of prompts and page titles: the raw material of prompt keywords (volumes),
// topic suggestions and the built-in generator. Pure functions; docs/content.md states the rules.

/** Function words: they may sit inside a phrase ("crm for startups") but never start or end one. */
const STOPWORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
can could did do does doing down during each few for from further had has have having he her here hers him his how i if
in into is it its itself just me more most my no nor not now of off on once only or other our ours out over own same she
should so some such than that the their theirs them then there these they this those through to too under until up very
was we were what whats when where which while who whom why will with would you your yours yourself vs versus via per get
gets got need needs want wants use using used find recommend recommended recommendation recommendations tell show give
list let lets please someone something anyone anything way ways much many really also`.split(/\s+/),
);

/**
 * Words that qualify a query rather than name a theme: kept inside keywords ("best crm for
 * startups" is a real search) but never a keyword or a topic on their own.
 */
const GENERIC = new Set(
  `best top good great better cheap cheapest cheaper affordable free new popular leading top-rated rated review reviews
compare comparison comparisons alternative alternatives option options choice choices guide guides overview tips ideas
examples list honest modern ultimate complete official latest today year pros cons difference differences worth right
ideal easy simple choose choosing pick picking buy buying price prices pricing cost costs plan plans feature features
product products service services company companies brand brands tool tools app apps software platform platforms
solution solutions team teams business businesses things thing people stuff blog docs news update updates page home
story stories customer customers getting started small smaller large larger big bigger little fast quick step
steps`.split(/\s+/),
);

/** Lower case, accents removed, anything but letters and digits turned into spaces, collapsed. */
export function normalizeText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export const words = (s: string): string[] => {
  const n = normalizeText(s);
  return n ? n.split(' ') : [];
};

export const isStopword = (w: string) => STOPWORDS.has(w);
/** A word that can carry a theme: not a function word, not a bare qualifier, not a lone digit. */
export const isContentWord = (w: string) => !STOPWORDS.has(w) && !GENERIC.has(w) && w.length > 1 && !/^\d+$/.test(w);

/**
 * The name a topic or suggestion is matched by: normalised text with a plural `s` dropped from
 * each longer word ("CRM Tools" and "crm tool" are the same topic).
 */
export function normalizeName(s: string): string {
  return words(s)
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w))
    .join(' ');
}

/**
 * Phrases of 1 to `maxWords` words that start and end on a word that is not a stopword and
 * contain at least one content word: "best crm for startups" gives "best crm", "crm",
 * "crm for startups", "startups", ... In order of first appearance, each once.
 */
export function phrases(text: string, maxWords = 4): string[] {
  const ws = words(text);
  const out = new Set<string>();
  for (let i = 0; i < ws.length; i++) {
    if (isStopword(ws[i])) continue;
    for (let j = i; j < Math.min(ws.length, i + maxWords); j++) {
      if (isStopword(ws[j])) continue;
      const slice = ws.slice(i, j + 1);
      if (slice.some(isContentWord)) out.add(slice.join(' '));
    }
  }
  return [...out];
}

/**
 * The core of a query: its words from the first to the last that is not a stopword, e.g.
 * "what is the best crm for startups?" -> "best crm for startups".
 */
export function corePhrase(text: string): string {
  const ws = words(text);
  let i = 0;
  let j = ws.length - 1;
  while (i <= j && isStopword(ws[i])) i++;
  while (j >= i && isStopword(ws[j])) j--;
  return ws.slice(i, j + 1).join(' ');
}

/**
 * The keywords of a prompt, most specific first: its core phrase, then its phrases of two or three
 * words (qualifiers such as "best" or "pricing" included: people search that way), then its
 * content words. At most `max`.
 */
export function promptKeywords(text: string, max = 10): string[] {
  const all = phrases(text, 3);
  const multi = all.filter((p) => p.includes(' '));
  const single = all.filter((p) => !p.includes(' ') && isContentWord(p));
  return [...new Set([corePhrase(text), ...multi, ...single].filter(Boolean))].slice(0, max);
}

/**
 * The phrases of a prompt that may be looked up in the keyword volumes: every phrase of two words
 * or more, and its core phrase. One word on its own ("crm") stands for far more searches than the
 * prompt, so it counts only when the prompt is that one word.
 */
export function volumeCandidates(text: string): string[] {
  const core = corePhrase(text);
  const multi = phrases(text, 8).filter((p) => p.includes(' '));
  return [...new Set([core, ...multi].filter(Boolean))];
}

/** "A", "A and B", "A, B and C". */
export function andList(xs: string[]): string {
  return xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
}

/**
 * Acronyms as written somewhere in `texts` ("CRM" in a cited title), by lower-case form, so text
 * built from normalised words can show them as people write them.
 */
export function acronyms(texts: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const t of texts) {
    for (const m of t.matchAll(/(?<![\p{L}\p{N}])\p{Lu}[\p{Lu}\p{N}]{1,5}(?![\p{L}\p{N}])/gu)) {
      const lower = m[0].toLowerCase();
      // Shouted ordinary words ("BEST", "US") are not acronyms.
      if (!STOPWORDS.has(lower) && !GENERIC.has(lower)) map.set(lower, m[0]);
    }
  }
  return map;
}

/** Replaces each word of `s` that is a known acronym by its written form. */
export const withAcronyms = (s: string, map: Map<string, string>) =>
  map.size ? s.replace(/[\p{L}\p{N}]+/gu, (w) => map.get(w.toLowerCase()) ?? w) : s;

/** "crm for startups" -> "Crm for startups": the first letter up, the rest as written. */
export const capitalize = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
