// Sentiment per entity (docs/api.md section 13; docs/analysis.md, "Sentiment" says the rules in
// words): for each entity named in an answer, a polarity and a score in [-1, 1] from the sentences
// and list items that name it. Pure and deterministic; only the units holding a mention are read,
// and every word costs one lookup (word-table.ts).
import {
  ALTERNATIVE,
  AS,
  BOOSTER,
  COMPARISON_MARKER,
  COMPARISON_NOUN,
  CONTRAST,
  DIM_NOTHING,
  DIMINISHER,
  EVEN,
  foldedUnit,
  HASH_START,
  hashStep,
  HIGH,
  knownWord,
  knownWordAt,
  LESS,
  LOW,
  NEGATOR,
  PHRASE,
  PRICE,
  RATED,
  RELATIVE,
  SUBORDINATOR,
  THOUGH,
  TOO,
  WITH_TO,
  wordFlags,
  wordPhrases,
  wordValue,
  wordValues,
} from './word-table.ts';

export type Polarity = 'positive' | 'neutral' | 'negative';

export interface EntitySentiment {
  sentiment: Polarity;
  /** In [-1, 1], 3 decimals. */
  score: number;
}

/** How a polarity is stored (answer_entities.sentiment, clickhouse/015_sentiment.sql). */
export const POLARITY_VALUE = { positive: 1, neutral: 0, negative: -1 } as const satisfies Record<Polarity, number>;

/** A stored polarity read back (its sign; the value may arrive as text from ClickHouse's JSON). */
export function polarityOfValue(value: unknown): Polarity {
  const v = Number(value);
  return v > 0 ? 'positive' : v < 0 ? 'negative' : 'neutral';
}

/** One mention as the mention scan found it: the entity's index and where it lies in the text. */
export interface MentionSpan {
  owner: number;
  start: number;
  end: number;
}

/** The summed valence S becomes S / sqrt(S^2 + ALPHA) (VADER's normalisation): one "good" is 0.61. */
const ALPHA = 15;
/** |score| at or above this is positive or negative; below it, neutral. */
const POLARITY_THRESHOLD = 0.2;
const NEGATION_FACTOR = -0.75;
const BOOST = 1.3;
/** Weights of the clauses before and after a contrast, and of a sentence-opening subordinate clause. */
const BEFORE_CONTRAST = 0.5;
const AFTER_CONTRAST = 1.5;
const SUBORDINATE = 0.5;

// The unit being scored, as parallel arrays reused from unit to unit: each token's kind (SEP, WORD or
// the owner's index), its word's number in word-table.ts (-1 when unknown, and for separators and
// mentions), its flags there and its valence. Ingestion scores every answer, and an object per token
// and per clause instead made the analysis stage about a fifth slower (bench/ingest-stages.ts, in turns).
const SEP = -2;
const WORD = -1;
const tokenKind: number[] = [];
const tokenWord: number[] = [];
const tokenFlags: number[] = [];
const tokenValue: number[] = [];
let tokenCount = 0;
/** Whether a token of the unit can carry valence; a unit with none adds nothing to any entity. */
let unitRated = false;

/** A word as the word table spells it: lower case, ’ read as '. */
function lowerWord(text: string, from: number, to: number): string {
  const w = text.slice(from, to).toLowerCase();
  return w.includes('’') ? w.replaceAll('’', "'") : w;
}

function pushToken(kind: number): void {
  tokenKind[tokenCount] = kind;
  tokenWord[tokenCount] = -1;
  tokenFlags[tokenCount] = 0;
  tokenValue[tokenCount] = 0;
  tokenCount++;
}

/**
 * Pushes the word text[from, to); `hyphen` says whether it holds a '-'. `fast`: the word holds only
 * ASCII letters and digits, connectors and ’, and `h` is the hash of its folded units (word-table.ts);
 * any other word is lower-cased as a string of its own (toLowerCase, as the table's words were).
 */
function pushWord(text: string, from: number, to: number, hyphen: boolean, fast: boolean, h: number): void {
  let n: number;
  let value = 0;
  if (fast) {
    n = knownWordAt(text, from, to, h);
    if (n < 0 && hyphen) value = hyphenValue(text, from, to);
  } else {
    const w = lowerWord(text, from, to);
    n = knownWord(w);
    if (n < 0 && hyphen) value = wordValue(w);
  }
  let flags = value !== 0 ? RATED : 0;
  if (n >= 0) {
    flags = wordFlags[n];
    value = wordValues[n];
  }
  if (flags & RATED) unitRated = true;
  tokenKind[tokenCount] = WORD;
  tokenWord[tokenCount] = n;
  tokenFlags[tokenCount] = flags;
  tokenValue[tokenCount] = value;
  tokenCount++;
}

/**
 * wordValue of a hyphenated fast-path word the table does not know: the sum of its parts' valences,
 * each part looked up where it lies ("budget-friendly": budget + friendly).
 */
function hyphenValue(text: string, from: number, to: number): number {
  let sum = 0;
  let part = from;
  let h = HASH_START;
  for (let k = from; k <= to; k++) {
    const c = k < to ? text.charCodeAt(k) : 45;
    if (c === 45) {
      const n = knownWordAt(text, part, k, h);
      if (n >= 0) sum += wordValues[n];
      part = k + 1;
      h = HASH_START;
    } else h = hashStep(h, foldedUnit(c));
  }
  return sum;
}

interface Segment {
  /** Its clause: tokens [from, to) of the unit (words and mentions). */
  from: number;
  to: number;
  valence: number;
  weight: number;
  holders: number[];
  objects: number[];
  relative: boolean;
  /** The last mention before this segment in its unit, for a relative clause. */
  before: number;
}

// Each entity's summed valence and whether it is named, reused from answer to answer.
let sums = new Float64Array(16);
let named = new Uint8Array(16);

// The unit's segments, from a pool kept across units.
const segments: Segment[] = [];
let segmentCount = 0;

/**
 * Sentiment of every entity in one text. `spans` are the mentions on that same text in order of
 * start (analyze.ts scanMentions); entities without a mention get null.
 */
export function entitySentiments(
  text: string,
  spans: readonly MentionSpan[],
  entityCount: number,
): (EntitySentiment | null)[] {
  const out = new Array<EntitySentiment | null>(entityCount).fill(null);
  if (spans.length === 0) return out;
  if (sums.length < entityCount) {
    sums = new Float64Array(entityCount);
    named = new Uint8Array(entityCount);
  } else {
    sums.fill(0, 0, entityCount);
    named.fill(0, 0, entityCount);
  }
  let i = 0;
  while (i < spans.length) {
    const j = tokensOf(text, unitStart(text, spans[i].start), spans, i);
    // Every clause of a unit without a rated word has valence 0, which moves no sum.
    if (unitRated) scoreUnit(sums);
    i = j;
  }
  for (let k = 0; k < entityCount; k++) if (named[k]) out[k] = polarityOf(sums[k]);
  return out;
}

function polarityOf(sum: number): EntitySentiment {
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

// \n . ! ? are all below 64, so most characters are passed over after one comparison.
function unitStart(text: string, from: number): number {
  for (let k = from - 1; k >= 0; k--) if (text.charCodeAt(k) < 64 && isUnitEnd(text, k)) return k + 1;
  return 0;
}

/** The first unit end in text[from, to), or -1 (for the inside of a mention). */
function unitEndIn(text: string, from: number, to: number): number {
  for (let k = from; k < to; k++) if (text.charCodeAt(k) < 64 && isUnitEnd(text, k)) return k;
  return -1;
}

// Words and separators are read by hand, as this pattern would match them (one match after the other):
//   [\p{L}\p{N}]+(?:['’.\-&*+][\p{L}\p{N}]+)*  a word, with inner ' ’ . - & * + ("o'reilly", "wi-fi")
//   [,;:|()–—]  or  \s-\s                      a clause separator
// A separator of three characters that does not start with a space, tab or line break is read as a
// word, as the first version of this scan did.
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/uy;
const SPACE = /\s/y;

// What each ASCII character can be to the scan.
const OTHER = 0;
const LETTER_OR_DIGIT_CHAR = 1;
const CONNECTOR_CHAR = 2; // ' . - & * +
const SEPARATOR_CHAR = 3; // , ; : | ( )
const SPACE_CHAR = 4; // what \s matches in ASCII
const ASCII_CLASS = new Uint8Array(128).fill(OTHER);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (/[a-zA-Z0-9]/.test(ch)) ASCII_CLASS[c] = LETTER_OR_DIGIT_CHAR;
  else if ("'.-&*+".includes(ch)) ASCII_CLASS[c] = CONNECTOR_CHAR;
  else if (',;:|()'.includes(ch)) ASCII_CLASS[c] = SEPARATOR_CHAR;
  else if (/\s/.test(ch)) ASCII_CLASS[c] = SPACE_CHAR;
}

/** Length (1 or 2 code units) of the letter or digit at k, or 0. */
function letterOrDigitAt(text: string, k: number): number {
  const c = text.charCodeAt(k);
  if (c < 128) return ASCII_CLASS[c] === LETTER_OR_DIGIT_CHAR ? 1 : 0;
  if (Number.isNaN(c)) return 0;
  LETTER_OR_DIGIT.lastIndex = k;
  return LETTER_OR_DIGIT.test(text) ? LETTER_OR_DIGIT.lastIndex - k : 0;
}

function isSpaceAt(text: string, k: number): boolean {
  const c = text.charCodeAt(k);
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  SPACE.lastIndex = k;
  return SPACE.test(text);
}

/**
 * Pushes the words and separators of text[from, to) up to the first unit end in it, and returns
 * where that end is, or -1 when there is none. Reading the unit's words also finds where it ends:
 * no word holds a unit end (a '.' inside a word has a letter or digit after it), so the tokens
 * pushed are those of text[from, end).
 */
function pushWords(text: string, from: number, to: number): number {
  let k = from;
  while (k < to) {
    const c = text.charCodeAt(k);
    if (c < 64 && isUnitEnd(text, k)) return k;
    let n = 1;
    if (c < 128) {
      const cls = ASCII_CLASS[c];
      if (cls === SPACE_CHAR) {
        if (text.charCodeAt(k + 1) === 45 && isSpaceAt(text, k + 2)) {
          // A separator ending the unit (" -\n") is cut off, as the unit's end is.
          if (isUnitEnd(text, k + 2)) return k + 2;
          if (k + 3 > to) return -1;
          if (c === 32 || c === 9 || c === 10) pushToken(SEP);
          else pushWord(text, k, k + 3, true, false, 0);
          k += 3;
        } else k++;
        continue;
      }
      if (cls === SEPARATOR_CHAR) {
        pushToken(SEP);
        k++;
        continue;
      }
      if (cls !== LETTER_OR_DIGIT_CHAR) {
        k++;
        continue;
      }
    } else {
      n = letterOrDigitAt(text, k);
      if (n === 0) {
        if (c === 0x2013 || c === 0x2014) {
          pushToken(SEP); // – —
          k++;
        } else if (text.charCodeAt(k + 1) === 45 && isSpaceAt(text, k) && isSpaceAt(text, k + 2)) {
          if (isUnitEnd(text, k + 2)) return k + 2;
          if (k + 3 > to) return -1;
          pushWord(text, k, k + 3, true, false, 0);
          k += 3;
        } else k += c >= 0xd800 && c <= 0xdbff && (text.codePointAt(k) ?? 0) > 0xffff ? 2 : 1;
        continue;
      }
    }
    // The word's hash is taken as it is read, while it holds only what foldedUnit folds.
    let e = k + n;
    let hyphen = false;
    let fast = c < 128;
    let h = fast ? hashStep(HASH_START, foldedUnit(c)) : 0;
    for (;;) {
      const d = text.charCodeAt(e);
      if (d < 128) {
        const cls = ASCII_CLASS[d];
        if (cls === LETTER_OR_DIGIT_CHAR) {
          h = hashStep(h, foldedUnit(d));
          e++;
        } else if (cls === CONNECTOR_CHAR && letterOrDigitAt(text, e + 1) > 0) {
          if (d === 45) hyphen = true;
          h = hashStep(h, d);
          e++;
        } else break;
      } else {
        n = letterOrDigitAt(text, e);
        if (n > 0) {
          fast = false;
          e += n;
        } else if (d === 0x2019 && letterOrDigitAt(text, e + 1) > 0) {
          h = hashStep(h, 39);
          e++;
        } else break;
      }
    }
    if (e > to) return -1;
    pushWord(text, k, e, hyphen, fast, h);
    k = e;
  }
  return -1;
}

/**
 * Reads the unit starting at `start` that holds spans[i]: its words and mentions, up to its end,
 * the first unit end after spans[i] (a sentence, list item or row). Marks the mentioned entities
 * named and returns the index of the first span after the unit.
 */
function tokensOf(text: string, start: number, spans: readonly MentionSpan[], i: number): number {
  tokenCount = 0;
  unitRated = false;
  // No unit ends before spans[i] in the unit: its start is just after the last one.
  pushWords(text, start, spans[i].start);
  pushToken(spans[i].owner);
  named[spans[i].owner] = 1;
  let at = spans[i].end;
  let k = i + 1;
  for (;;) {
    const next = k < spans.length ? spans[k].start : text.length;
    if (pushWords(text, at, next) >= 0 || k === spans.length) return k;
    // The next mention is in the unit; a unit end inside it (a form ending in ". ") ends the unit there.
    const s = spans[k++];
    pushToken(s.owner);
    named[s.owner] = 1;
    if (unitEndIn(text, s.start, s.end) >= 0) return k;
    at = s.end;
  }
}

function newSegment(from: number, before: number): Segment {
  let seg = segments[segmentCount];
  if (seg === undefined) {
    seg = { from, to: from, valence: 0, weight: 1, holders: [], objects: [], relative: false, before };
    segments[segmentCount] = seg;
  } else {
    seg.from = from;
    seg.to = from;
    seg.valence = 0;
    seg.weight = 1;
    empty(seg.holders);
    empty(seg.objects);
    seg.relative = false;
    seg.before = before;
  }
  return seg;
}

/**
 * Empties a pooled list and keeps its room: V8 frees an array's storage when its length is set to
 * 0, so the next push allocated it again (about 0.7 KB an answer); pop never does.
 */
function empty(list: number[]): void {
  while (list.length !== 0) list.pop();
}

/** Keeps the open segment (tokens [seg.from, to)) when it holds a word, rating its clause. */
function closeSegment(seg: Segment, to: number): void {
  seg.to = to;
  seg.valence = rateClause(seg.from, to);
  if (to > seg.from) segmentCount++;
}

/** Cuts the unit's tokens into clauses (at punctuation and contrast words) and rates each clause's words. */
function segmentsOf(): void {
  segmentCount = 0;
  let lastMention = -1;
  let seg = newSegment(0, -1);
  let contrastAt = -1;
  let subordinateFirst = false;
  let comparing = false;
  let sawAs = false;

  for (let k = 0; k < tokenCount; k++) {
    const kind = tokenKind[k];
    if (kind === SEP) {
      closeSegment(seg, k);
      seg = newSegment(k + 1, lastMention);
      comparing = false;
      sawAs = false;
      continue;
    }
    if (kind >= 0) {
      const alternative = k + 1 < tokenCount && (tokenFlags[k + 1] & ALTERNATIVE) !== 0;
      (comparing || alternative ? seg.objects : seg.holders).push(kind);
      lastMention = kind;
      continue;
    }
    const flags = tokenFlags[k];
    const first = k === seg.from;
    if (flags & CONTRAST && !(flags & THOUGH && segmentCount === 0 && first)) {
      closeSegment(seg, k);
      seg = newSegment(k + 1, lastMention);
      comparing = false;
      sawAs = false;
      contrastAt = segmentCount;
      continue;
    }
    if (first && segmentCount === 0 && (flags & SUBORDINATOR || (flags & EVEN && isNext(k, THOUGH)))) {
      subordinateFirst = true;
    }
    if (first && flags & RELATIVE) seg.relative = true;
    if (flags & COMPARISON_MARKER) comparing = true;
    else if (flags & WITH_TO && k > seg.from && tokenFlags[k - 1] & COMPARISON_NOUN) comparing = true;
    else if (flags & AS) {
      if (sawAs) comparing = true;
      sawAs = true;
    }
  }
  closeSegment(seg, tokenCount);

  if (subordinateFirst && segmentCount > 1) segments[0].weight *= SUBORDINATE;
  if (contrastAt > 0)
    for (let k = 0; k < segmentCount; k++) segments[k].weight *= k < contrastAt ? BEFORE_CONTRAST : AFTER_CONTRAST;
}

function isNext(k: number, flag: number): boolean {
  return k + 1 < tokenCount && (tokenFlags[k + 1] & flag) !== 0;
}

/** The nearest segment naming a holder, looking one way first and then the other. */
function nearestHeld(k: number, nextFirst: boolean): Segment | undefined {
  const first = nextFirst ? 1 : -1;
  for (let m = k + first; m >= 0 && m < segmentCount; m += first) if (segments[m].holders.length) return segments[m];
  for (let m = k - first; m >= 0 && m < segmentCount; m -= first) if (segments[m].holders.length) return segments[m];
  return undefined;
}

/** Whether list[i] is the first of its value in list (the lists hold a few entities each). */
function firstOf(list: readonly number[], i: number): boolean {
  return list.indexOf(list[i]) === i;
}

/** Adds each clause's valence to the entities it speaks of. */
function scoreUnit(sums: Float64Array): void {
  segmentsOf();
  for (let k = 0; k < segmentCount; k++) {
    const seg = segments[k];
    const v = seg.valence * seg.weight;
    if (v !== 0) {
      // A clause naming no one speaks of the subject before it, and goes on with its comparison
      // ("X is cheaper than Y but less durable"); a relative clause, of the entity just named.
      const carried = seg.holders.length || seg.relative ? undefined : nearestHeld(k, false);
      if (carried) {
        const list = carried.holders;
        for (let m = 0; m < list.length; m++) if (firstOf(list, m)) sums[list[m]] += v;
        const objects = carried.objects;
        for (let m = 0; m < objects.length; m++)
          if (firstOf(objects, m) && !seg.objects.includes(objects[m])) sums[objects[m]] -= v;
      } else if (seg.holders.length) {
        const list = seg.holders;
        for (let m = 0; m < list.length; m++) if (firstOf(list, m)) sums[list[m]] += v;
      } else if (seg.relative && seg.before >= 0) sums[seg.before] += v;
    }
    if (seg.objects.length) {
      // "Unlike X, Acme ...": the comparison's valence is in the subject's clause.
      const other = v !== 0 ? undefined : nearestHeld(k, true);
      const cv = other ? other.valence * other.weight : v;
      const objects = seg.objects;
      for (let m = 0; m < objects.length; m++) if (firstOf(objects, m)) sums[objects[m]] -= cv;
    }
  }
}

/** Sum of the valences of one clause's words (tokens [from, to)), with negation, boosters, "too" and diminishers. */
function rateClause(from: number, to: number): number {
  let price = false;
  for (let k = from; k < to && !price; k++) price = (tokenFlags[k] & PRICE) !== 0;
  let sum = 0;
  let negate = 0;
  let boost = 0;
  let too = 0;
  let dim = 0;
  let dimFlags = 0;
  for (let k = from; k < to; k++) {
    const flags = tokenFlags[k];
    let v = 0;
    let used = 1;
    const phrase = flags & PHRASE ? phraseAt(k, to) : 0;
    if (phrase > 0) {
      v = phraseValue;
      used = phrase;
    } else if (flags & NEGATOR) {
      negate = 4;
    } else if (flags & BOOSTER) {
      boost = 3;
    } else if (flags & TOO) {
      too = 3;
    } else if (flags & DIMINISHER) {
      dim = 3;
      dimFlags = flags;
    } else if (flags & HIGH) {
      if (price) v = -1.5;
    } else if (flags & LOW) {
      if (price) v = 1.5;
    } else v = tokenValue[k];

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
      if (dim > 0 && --dim === 0) sum += dimAlone(dimFlags, price);
    }
    k += used - 1;
  }
  if (dim > 0) sum += dimAlone(dimFlags, price);
  return sum;
}

/** "costs less", "lower fees" favour; "fewer listings", "a smaller store" count against. */
function dimAlone(flags: number, price: boolean): number {
  if (price && flags & LESS) return 1.5;
  return flags & DIM_NOTHING ? 0 : -1;
}

/** The valence of the phrase phraseAt found last. */
let phraseValue = 0;

/** Length in words of the lexicon phrase starting at token k of a clause ending at `to`, or 0. */
function phraseAt(k: number, to: number): number {
  const list = wordPhrases[tokenWord[k]];
  if (list === undefined) return 0;
  for (const p of list) {
    if (k + p.words.length > to) continue;
    let ok = true;
    for (let m = 1; m < p.words.length && ok; m++) ok = tokenWord[k + m] === p.words[m];
    if (ok) {
      phraseValue = p.value;
      return p.words.length;
    }
  }
  return 0;
}
