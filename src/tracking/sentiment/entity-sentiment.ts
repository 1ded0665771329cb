// Sentiment per entity (CONTRACT.md section 13; docs/analysis.md, "Sentiment" says the rules in
// words): for each entity named in an answer, a polarity and a score in [-1, 1] from the sentences
// and list items that name it. Pure and deterministic; only the units holding a mention are read,
// and every word costs one Map lookup.
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

export type Polarity = 'positive' | 'neutral' | 'negative';

export interface EntitySentiment {
  sentiment: Polarity;
  /** In [-1, 1], 3 decimals. */
  score: number;
}

/** How a polarity is stored (answer_entities.sentiment, clickhouse/015_sentiment.sql). */
export const POLARITY_VALUE = { positive: 1, neutral: 0, negative: -1 } as const satisfies Record<Polarity, number>;

/** One mention as the mention scan found it: the entity's index and where it lies in the text. */
export interface MentionSpan {
  owner: number;
  start: number;
  end: number;
}

/** The summed valence S becomes S / sqrt(S^2 + ALPHA) (VADER's normalisation): one "good" is 0.61. */
const ALPHA = 15;
/** |score| at or above this is positive or negative; below it, neutral. */
export const POLARITY_THRESHOLD = 0.2;
const NEGATION_FACTOR = -0.75;
const BOOST = 1.3;
/** Weights of the clauses before and after a contrast, and of a sentence-opening subordinate clause. */
const BEFORE_CONTRAST = 0.5;
const AFTER_CONTRAST = 1.5;
const SUBORDINATE = 0.5;

const WORD = /[\p{L}\p{N}]+(?:['’.\-&*+][\p{L}\p{N}]+)*|[,;:|()–—]|\s-\s/gu;

type Token = { word: string } | { sep: true } | { owner: number };

interface Segment {
  words: number;
  valence: number;
  weight: number;
  holders: number[];
  objects: number[];
  relative: boolean;
  /** The last mention before this segment in its unit, for a relative clause. */
  before: number;
}

/**
 * Sentiment of every entity in one text. `spans` are the mentions on that same text in order of
 * start (analyze.ts scanMentions); entities without a mention get null.
 */
export function entitySentiments(
  text: string,
  spans: readonly MentionSpan[],
  entityCount: number,
): (EntitySentiment | null)[] {
  const sums = new Array<number>(entityCount).fill(0);
  const named = new Array<boolean>(entityCount).fill(false);
  let i = 0;
  while (i < spans.length) {
    const start = unitStart(text, spans[i].start);
    const end = unitEnd(text, spans[i].end);
    let j = i;
    while (j < spans.length && spans[j].start < end) named[spans[j++].owner] = true;
    scoreUnit(tokensOf(text, start, end, spans.slice(i, j)), sums);
    i = j;
  }
  return sums.map((s, k) => (named[k] ? polarityOf(s) : null));
}

export function polarityOf(sum: number): EntitySentiment {
  const score = Math.round((sum / Math.sqrt(sum * sum + ALPHA)) * 1000) / 1000 || 0;
  const sentiment = score >= POLARITY_THRESHOLD ? 'positive' : score <= -POLARITY_THRESHOLD ? 'negative' : 'neutral';
  return { sentiment, score };
}

// A unit is a sentence, a list item or a table row: it ends at a line break, or at . ! ? followed
// by white space. (A semicolon only ends a clause: what follows it still speaks of the subject.)
function isUnitEnd(text: string, k: number): boolean {
  const c = text.charCodeAt(k);
  if (c === 10) return true; // \n
  if (c !== 46 && c !== 33 && c !== 63) return false; // . ! ?
  const next = text.charCodeAt(k + 1);
  return Number.isNaN(next) || next === 32 || next === 10 || next === 9 || next === 13;
}

function unitStart(text: string, from: number): number {
  for (let k = from - 1; k >= 0; k--) if (isUnitEnd(text, k)) return k + 1;
  return 0;
}

function unitEnd(text: string, from: number): number {
  for (let k = from; k < text.length; k++) if (isUnitEnd(text, k)) return k;
  return text.length;
}

function pushWords(out: Token[], text: string, from: number, to: number): void {
  if (to <= from) return;
  WORD.lastIndex = from;
  for (let m = WORD.exec(text); m !== null && m.index < to; m = WORD.exec(text)) {
    if (m.index + m[0].length > to) break;
    const t = m[0];
    const c = t.charCodeAt(0);
    if (t.length === 1 || c === 32 || c === 9 || c === 10) {
      if (!/[\p{L}\p{N}]/u.test(t)) {
        out.push({ sep: true });
        continue;
      }
    }
    out.push({ word: t.toLowerCase().replace(/’/g, "'") });
  }
}

function tokensOf(text: string, start: number, end: number, spans: readonly MentionSpan[]): Token[] {
  const out: Token[] = [];
  let at = start;
  for (const s of spans) {
    pushWords(out, text, at, s.start);
    out.push({ owner: s.owner });
    at = s.end;
  }
  pushWords(out, text, at, end);
  return out;
}

function newSegment(before: number): Segment {
  return { words: 0, valence: 0, weight: 1, holders: [], objects: [], relative: false, before };
}

/** Cuts a unit into clauses (at punctuation and contrast words) and rates each clause's words. */
function segmentsOf(tokens: readonly Token[]): Segment[] {
  const segments: Segment[] = [];
  let lastMention = -1;
  let seg = newSegment(-1);
  let contrastAt = -1;
  let subordinateFirst = false;
  let clause: string[] = [];
  let comparing = false;
  let sawAs = false;

  const close = () => {
    seg.valence = rateClause(clause);
    if (seg.words > 0 || seg.holders.length || seg.objects.length) segments.push(seg);
    seg = newSegment(lastMention);
    clause = [];
    comparing = false;
    sawAs = false;
  };

  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if ('sep' in t) {
      close();
      continue;
    }
    if ('owner' in t) {
      const next = tokens[k + 1];
      const alternative = next && 'word' in next && (next.word === 'alternative' || next.word === 'alternatives');
      (comparing || alternative ? seg.objects : seg.holders).push(t.owner);
      lastMention = t.owner;
      seg.words++;
      clause.push('');
      continue;
    }
    const w = t.word;
    const first = seg.words === 0;
    if (CONTRASTS.has(w) && !(w === 'though' && segments.length === 0 && first)) {
      close();
      contrastAt = segments.length;
      continue;
    }
    if (first && segments.length === 0 && (SUBORDINATORS.has(w) || (w === 'even' && isNext(tokens, k, 'though')))) {
      subordinateFirst = true;
    }
    if (first && RELATIVES.has(w)) seg.relative = true;
    if (COMPARISON_MARKERS.has(w)) comparing = true;
    else if (
      (w === 'with' || w === 'to') &&
      /^(compared|comparison|alternative|alternatives|superior|inferior)$/.test(clause[clause.length - 1] ?? '')
    )
      comparing = true;
    else if (w === 'as') {
      if (sawAs) comparing = true;
      sawAs = true;
    }
    seg.words++;
    clause.push(w);
  }
  close();

  if (subordinateFirst && segments.length > 1) segments[0].weight *= SUBORDINATE;
  if (contrastAt > 0)
    segments.forEach((s, k) => {
      s.weight *= k < contrastAt ? BEFORE_CONTRAST : AFTER_CONTRAST;
    });
  return segments;
}

function isNext(tokens: readonly Token[], k: number, word: string): boolean {
  const t = tokens[k + 1];
  return t !== undefined && 'word' in t && t.word === word;
}

/** Adds each clause's valence to the entities it speaks of. */
function scoreUnit(tokens: readonly Token[], sums: number[]): void {
  const segments = segmentsOf(tokens);
  const nearestHeld = (k: number, nextFirst: boolean): Segment | undefined => {
    const order = nextFirst ? [1, -1] : [-1, 1];
    for (const dir of order)
      for (let m = k + dir; m >= 0 && m < segments.length; m += dir) if (segments[m].holders.length) return segments[m];
    return undefined;
  };
  segments.forEach((seg, k) => {
    const v = seg.valence * seg.weight;
    if (v !== 0) {
      // A clause naming no one speaks of the subject before it, and goes on with its comparison
      // ("X is cheaper than Y but less durable"); a relative clause, of the entity just named.
      const carried = seg.holders.length || seg.relative ? undefined : nearestHeld(k, false);
      const targets = seg.holders.length ? seg.holders : seg.relative && seg.before >= 0 ? [seg.before] : [];
      for (const t of new Set(carried?.holders ?? targets)) sums[t] += v;
      if (carried) for (const o of new Set(carried.objects)) if (!seg.objects.includes(o)) sums[o] -= v;
    }
    if (seg.objects.length) {
      // "Unlike X, Acme ...": the comparison's valence is in the subject's clause.
      const other = v !== 0 ? undefined : nearestHeld(k, true);
      const cv = other ? other.valence * other.weight : v;
      for (const o of new Set(seg.objects)) sums[o] -= cv;
    }
  });
}

/** Sum of the valences of one clause's words, with negation, boosters, "too" and diminishers. */
function rateClause(words: readonly string[]): number {
  const price = words.some((w) => PRICE_NOUNS.has(w));
  let sum = 0;
  let negate = 0;
  let boost = 0;
  let too = 0;
  let dim = 0;
  let dimWord = '';
  for (let k = 0; k < words.length; k++) {
    const w = words[k];
    let v = 0;
    let used = 1;
    const phrase = phraseAt(words, k);
    if (phrase) {
      v = phrase.value;
      used = phrase.length;
    } else if (NEGATORS.has(w)) {
      negate = 4;
    } else if (BOOSTERS.has(w)) {
      boost = 3;
    } else if (w === 'too') {
      too = 3;
    } else if (DIMINISHERS.has(w)) {
      dim = 3;
      dimWord = w;
    } else if (w === 'high' || w === 'higher' || w === 'steep') {
      if (price) v = -1.5;
    } else if (w === 'low') {
      if (price) v = 1.5;
    } else v = wordValue(w);

    if (v !== 0) {
      if (boost > 0) v *= BOOST;
      if (too > 0) v = -(Math.abs(v) + 1);
      if (dim > 0) {
        v = -v;
        dim = 0;
      }
      if (negate > 0) {
        v *= NEGATION_FACTOR;
        negate = 0;
      }
      sum += v;
    }
    for (let u = 0; u < used; u++) {
      negate = Math.max(0, negate - 1);
      boost = Math.max(0, boost - 1);
      too = Math.max(0, too - 1);
      if (dim > 0 && --dim === 0) sum += dimAlone(dimWord, price);
    }
    k += used - 1;
  }
  if (dim > 0) sum += dimAlone(dimWord, price);
  return sum;
}

/** "costs less", "lower fees" favour; "fewer listings", "a smaller store" count against. */
function dimAlone(w: string, price: boolean): number {
  if (price && (w === 'less' || w === 'lower')) return 1.5;
  return w === 'few' || w === 'reduce' || w === 'reduces' ? 0 : -1;
}

function phraseAt(words: readonly string[], k: number): { value: number; length: number } | undefined {
  const list = LEXICON.phrases.get(words[k]);
  if (!list) return undefined;
  for (const p of list) {
    if (k + p.words.length > words.length) continue;
    let ok = true;
    for (let m = 1; m < p.words.length && ok; m++) ok = words[k + m] === p.words[m];
    if (ok) return { value: p.value, length: p.words.length };
  }
  return undefined;
}

function wordValue(w: string): number {
  const v = LEXICON.words.get(w);
  if (v !== undefined) return v;
  if (!w.includes('-')) return 0;
  let sum = 0;
  for (const part of w.split('-')) sum += LEXICON.words.get(part) ?? 0;
  return sum;
}
