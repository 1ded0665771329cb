// The words the sentiment rules know (the lexicon's, words.ts's lists and the few the rules name),
// numbered once per process, with what each is to the rules (flags) and its valence. Ingestion
// scores every answer, so a word of the text is looked up where it lies in the text, by a hash of
// its characters folded to lower case as they are read, without cutting it out as a string.
import { LEXICON } from './lexicon.ts';
import {
  BOOSTERS,
  COMPARISON_MARKERS,
  CONTRASTS,
  DIMINISHERS,
  NEGATORS,
  PRICE_NOUNS,
  RELATIVES,
  SUBORDINATORS,
} from './words.ts';

export const NEGATOR = 1;
export const BOOSTER = 2;
export const TOO = 1 << 2;
export const DIMINISHER = 1 << 3;
/** "high", "higher", "steep": against, said of a price. */
export const HIGH = 1 << 4;
export const LOW = 1 << 5;
export const PRICE = 1 << 6;
export const CONTRAST = 1 << 7;
export const SUBORDINATOR = 1 << 8;
export const RELATIVE = 1 << 9;
export const COMPARISON_MARKER = 1 << 10;
/** "compared", "alternative"...: followed by "with" or "to", a comparison. */
export const COMPARISON_NOUN = 1 << 11;
/** The first word of a lexicon phrase. */
export const PHRASE = 1 << 12;
/** A word that can carry valence: rated in the lexicon, a phrase's start, a diminisher, high or low. */
export const RATED = 1 << 13;
export const THOUGH = 1 << 14;
export const EVEN = 1 << 15;
/** "with", "to". */
export const WITH_TO = 1 << 16;
export const AS = 1 << 17;
/** "alternative", "alternatives". */
export const ALTERNATIVE = 1 << 18;
/** "less", "lower": alone, in favour when the clause speaks of price. */
export const LESS = 1 << 19;
/** "few", "reduce", "reduces": alone, nothing. */
export const DIM_NOTHING = 1 << 20;

/** Each known word (by number): its flags, its valence (wordValue) and the phrases it opens. */
export const wordFlags: number[] = [];
export const wordValues: number[] = [];
export const wordPhrases: ({ words: number[]; value: number }[] | undefined)[] = [];

const words: string[] = [];
const hashes: number[] = [];
const numbers = new Map<string, number>();

/** Valence of a word: the lexicon's, or for a hyphenated word not in it, the sum of its parts'. */
export function wordValue(w: string): number {
  const v = LEXICON.words.get(w);
  if (v !== undefined) return v;
  if (!w.includes('-')) return 0;
  let sum = 0;
  for (const part of w.split('-')) sum += LEXICON.words.get(part) ?? 0;
  return sum;
}

function numberOf(w: string): number {
  let n = numbers.get(w);
  if (n === undefined) {
    n = words.length;
    numbers.set(w, n);
    words.push(w);
    wordFlags.push(0);
    wordValues.push(wordValue(w));
    wordPhrases.push(undefined);
  }
  return n;
}

function flag(list: Iterable<string>, f: number): void {
  for (const w of list) wordFlags[numberOf(w)] |= f;
}

flag(LEXICON.words.keys(), 0);
flag(NEGATORS, NEGATOR);
flag(BOOSTERS, BOOSTER);
flag(['too'], TOO);
flag(DIMINISHERS, DIMINISHER | RATED);
flag(['less', 'lower'], LESS);
flag(['few', 'reduce', 'reduces'], DIM_NOTHING);
flag(['high', 'higher', 'steep'], HIGH | RATED);
flag(['low'], LOW | RATED);
flag(PRICE_NOUNS, PRICE);
flag(CONTRASTS, CONTRAST);
flag(SUBORDINATORS, SUBORDINATOR);
flag(RELATIVES, RELATIVE);
flag(COMPARISON_MARKERS, COMPARISON_MARKER);
flag(['compared', 'comparison', 'alternative', 'alternatives', 'superior', 'inferior'], COMPARISON_NOUN);
flag(['though'], THOUGH);
flag(['even'], EVEN);
flag(['with', 'to'], WITH_TO);
flag(['as'], AS);
flag(['alternative', 'alternatives'], ALTERNATIVE);
for (const [first, list] of LEXICON.phrases) {
  // Every word of a phrase is numbered, so a phrase matches on the words' numbers (longest first).
  wordPhrases[numberOf(first)] = list.map((p) => ({ words: p.words.map(numberOf), value: p.value }));
  wordFlags[numberOf(first)] |= PHRASE | RATED;
}
for (let n = 0; n < words.length; n++) if (wordValues[n] !== 0) wordFlags[n] |= RATED;

// FNV-1a over the UTF-16 code units, as the scan folds them (foldedUnit): the scan hashes a word
// of the answer while it reads it, so a word costs no string of its own and no lower-cased text.
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** Starting value of a word's hash; hashStep adds one folded code unit. */
export const HASH_START = FNV_OFFSET;

export function hashStep(h: number, unit: number): number {
  return Math.imul(h ^ unit, FNV_PRIME);
}

function hashOf(s: string): number {
  let h = FNV_OFFSET;
  for (let k = 0; k < s.length; k++) h = hashStep(h, s.charCodeAt(k));
  return h;
}

/**
 * A code unit as the word table spells it, for the units a fast-path word holds: ASCII upper case
 * to lower case, ’ to '. Any other unit is the same (words holding other non-ASCII letters take
 * knownWord, which lower-cases them as toLowerCase does).
 */
export function foldedUnit(c: number): number {
  return c >= 65 && c <= 90 ? c + 32 : c === 0x2019 ? 39 : c;
}

// Open addressing, at most half full: slot -> word number + 1 (0 is empty).
const SLOTS = 1 << Math.ceil(Math.log2(words.length * 2 + 2));
const slots = new Int32Array(SLOTS);
for (let n = 0; n < words.length; n++) {
  const h = hashOf(words[n]);
  hashes.push(h);
  let s = h & (SLOTS - 1);
  while (slots[s] !== 0) s = (s + 1) & (SLOTS - 1);
  slots[s] = n + 1;
}

/**
 * Number of the word text[from, to), whose folded units (foldedUnit) hash to h, or -1 when it is
 * not known. For words of ASCII letters and digits, connectors and ’ only.
 */
export function knownWordAt(text: string, from: number, to: number, h: number): number {
  const len = to - from;
  for (let s = h & (SLOTS - 1); slots[s] !== 0; s = (s + 1) & (SLOTS - 1)) {
    const n = slots[s] - 1;
    if (hashes[n] !== h) continue;
    const w = words[n];
    if (w.length !== len) continue;
    let k = 0;
    while (k < len && w.charCodeAt(k) === foldedUnit(text.charCodeAt(from + k))) k++;
    if (k === len) return n;
  }
  return -1;
}

/** Number of a word (lower case, ’ read as '), or -1 when it is not known. */
export function knownWord(w: string): number {
  return numbers.get(w) ?? -1;
}
