// Answer analysis: one answer + a brand's entities -> per-entity figures and citation rows,
// exactly as docs/api.md section 2 defines them (docs/analysis.md says it in plain words).
// Pure: no I/O. Ingestion calls it for every answer, so the per-brand work (regexes, domain
// index) is done once in compileEntities() and analyzeAnswer() only scans.

import type { AnswerInput, ArticleType, Category, CitationFigures, EntityFigures } from '../types.ts';
import type { Entity } from '../../tenancy/tracked.ts';
import { articleTypeOf, classifyExternal } from './classify.ts';
import { firstIndexes } from './first-indexes.ts';
import { entitySentiments, type EntitySentiment, type MentionSpan } from './sentiment/entity-sentiment.ts';
import { domainSuffixes, normaliseDomain, parseCitationUrl, type ParsedCitationUrl } from './urls.ts';

/** A brand's entities prepared for analysis. Build once per brand, reuse for every answer. */
export interface CompiledEntities {
  /** Brand entities first, then competitors, each group in the order given. */
  readonly entities: readonly Entity[];
  /** Normalised domains of each entity (same order as entities). */
  readonly domains: readonly (readonly string[])[];
  /** @internal one global regex over every surface form of every entity; null when there is none. */
  readonly matcher: RegExp | null;
  /** @internal folded surface form -> index of the entity that owns it. */
  readonly formOwner: ReadonlyMap<string, number>;
  /** @internal anchored regex per form, for matched text whose folding differs from toLowerCase. */
  readonly formExact: readonly { re: RegExp; owner: number }[];
  /** @internal domain -> indexes of the entities that list it. */
  readonly domainOwners: ReadonlyMap<string, readonly number[]>;
  /** @internal memo: cited domain -> its owners and category (domains repeat far more than URLs). */
  readonly domainMemo: Map<string, DomainInfo>;
}

interface DomainInfo {
  owners: readonly number[];
  category: Category;
}

export interface AnswerAnalysis {
  entities: EntityFigures[];
  citations: CitationFigures[];
  /** Sentiment of each entity (same order as entities); null where it is not named. */
  sentiments: (EntitySentiment | null)[];
}

// A match counts only when the characters either side are not letters or digits. A combining mark
// right after a match (a decomposed accent, "Noire" + U+0301) belongs to the letter before it, so
// it blocks the match too.
const BEFORE = '(?<![\\p{L}\\p{N}])';
const AFTER = '(?![\\p{L}\\p{N}\\p{M}])';

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g; // the syntax characters the u flag allows escaping

/**
 * Regex source for one (NFC) surface form: literal text; a space matches any run of whitespace;
 * ' matches ’ too; an accented letter matches its precomposed and its decomposed spelling
 * ("é" or "e" + U+0301), so answer texts never need normalising.
 */
function formSource(form: string): string {
  return form
    .split(/\s+/)
    .map((word) => {
      let out = '';
      for (const ch of word) {
        if (ch === "'" || ch === '’') out += "['’]";
        else if (ch.charCodeAt(0) < 0x80) out += ch.replace(REGEX_SPECIAL, '\\$&');
        else {
          const nfd = ch.normalize('NFD');
          out += nfd === ch ? ch : `(?:${ch}|${nfd})`;
        }
      }
      return out;
    })
    .join('\\s+');
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: ASCII starts at NUL; this finds any character past it
const NON_ASCII = /[^\x00-\x7f]/;

/** Key under which a surface form and a piece of matched text meet. */
function fold(s: string): string {
  const t = NON_ASCII.test(s) ? s.normalize('NFC').replace(/’/g, "'") : s;
  return t.toLowerCase().replace(/\s+/g, ' ');
}

function cleanForm(s: unknown): string {
  return typeof s === 'string' ? s.normalize('NFC').trim().replace(/\s+/g, ' ') : '';
}

/**
 * Prepares a brand's entities (the brand and its competitors) for analysis: one regex over all
 * surface forms, longest first, and a domain index. Brand entities are put first.
 */
export function compileEntities(entities: readonly Entity[]): CompiledEntities {
  const ordered = [...entities.filter((e) => e.kind === 'brand'), ...entities.filter((e) => e.kind !== 'brand')];

  const forms: { text: string; owner: number; seq: number }[] = [];
  const formOwner = new Map<string, number>();
  const domains: string[][] = [];
  const domainOwners = new Map<string, number[]>();

  ordered.forEach((e, owner) => {
    const ds: string[] = [];
    for (const raw of e.domains ?? []) {
      const d = normaliseDomain(raw);
      if (d === '' || ds.includes(d)) continue;
      ds.push(d);
      const owners = domainOwners.get(d) ?? [];
      if (!owners.includes(owner)) owners.push(owner);
      domainOwners.set(d, owners);
    }
    domains.push(ds);

    // Domains are matched as written in text ("visit acme.com"): the bare domain, without www.
    for (const raw of [e.name, ...(e.aliases ?? []), ...ds]) {
      const text = cleanForm(raw);
      if (text === '') continue;
      const key = fold(text);
      // The same form on two entities: the first one (brand first, then competitors in order) owns it.
      if (formOwner.has(key)) continue;
      formOwner.set(key, owner);
      forms.push({ text, owner, seq: forms.length });
    }
  });

  // Longest first, so that at any start the longest form that fits (with its boundaries) wins.
  forms.sort((a, b) => b.text.length - a.text.length || a.seq - b.seq);
  const matcher = forms.length
    ? new RegExp(`${BEFORE}(?:${forms.map((f) => formSource(f.text)).join('|')})${AFTER}`, 'giu')
    : null;
  const formExact = forms.map((f) => ({ re: new RegExp(`^(?:${formSource(f.text)})$`, 'iu'), owner: f.owner }));

  return { entities: ordered, domains, matcher, formOwner, formExact, domainOwners, domainMemo: new Map() };
}

// `[label](target "title")` -> `[label]`: the target (and its optional title) goes, the label stays.
// Targets may hold one level of balanced parentheses (Wikipedia URLs) or be wrapped in <...>.
const LINK_TARGET = /\]\(\s*(?:<[^>\n]*>|(?:[^()\s]|\([^()\s]*\))*)(?:\s+(?:"[^"\n]*"|'[^'\n]*'|\([^()\n]*\)))?\s*\)/g;
// Bare URLs: http(s)://... or www.... up to the next whitespace, quote, angle bracket or backtick.
const BARE_URL = /(?<![\p{L}\p{N}])(?:https?:\/\/|www\.)[^\s<>"`]*/giu;

/** The answer text as mentions are counted on: link targets and bare URLs removed. */
export function mentionText(text: string): string {
  let t = typeof text === 'string' ? text : '';
  if (t.includes('](')) t = t.replace(LINK_TARGET, ']');
  return t.replace(BARE_URL, ' ');
}

function ownerOf(compiled: CompiledEntities, matched: string): number {
  // Most matches are written like the form, up to case: try the cheap key first.
  const o = compiled.formOwner.get(matched.toLowerCase()) ?? compiled.formOwner.get(fold(matched));
  if (o !== undefined) return o;
  // Case folding in regexes (simple Unicode folding) and toLowerCase differ on a few letters
  // (e.g. final sigma, long s); find the form the long way. Forms are in regex order.
  for (const f of compiled.formExact) if (f.re.test(matched)) return f.owner;
  return -1;
}

export interface MentionScan {
  counts: number[];
  /** Entity index of the leftmost match, -1 when none (used for product cards). */
  leftmost: number;
}

/**
 * Scans text (already prepared) for mentions: leftmost match first, and at one start the longest
 * form; matching resumes after the end of each match, so matches never overlap. With `spans`, every
 * match is also pushed there (entity index and offsets), for the sentiment analysis.
 */
export function scanMentions(compiled: CompiledEntities, text: string, spans?: MentionSpan[]): MentionScan {
  const n = compiled.entities.length;
  const counts = new Array<number>(n).fill(0);
  let leftmost = -1;
  const re = compiled.matcher;
  if (re && text.length) {
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const owner = ownerOf(compiled, m[0]);
      if (owner < 0) continue;
      counts[owner]++;
      spans?.push({ owner, start: m.index, end: m.index + m[0].length });
      if (leftmost < 0) leftmost = owner;
    }
  }
  return { counts, leftmost };
}

/** Visibility score of one entity in one answer, 0-100 (not rounded). */
export function visibilityScore(named: boolean, cited: boolean, position: number): number {
  return 100 * (0.6 * (named ? 1 : 0) + 0.25 * (cited ? 1 : 0) + 0.15 * (named && position > 0 ? 1 / position : 0));
}

/** Indexes of the entities a domain belongs to (exact or sub-domain), without repeats. */
export function ownersOfDomain(compiled: CompiledEntities, domain: string): number[] {
  let out: number[] | null = null;
  for (const s of domainSuffixes(domain)) {
    const owners = compiled.domainOwners.get(s);
    if (!owners) continue;
    for (const o of owners) {
      if (!out) out = [o];
      else if (!out.includes(o)) out.push(o);
    }
  }
  return out ?? [];
}

/**
 * A cited domain's category, given its owners among the tracked entities: `you` when the brand is
 * one of them (over competitors sharing it), `competitor` when only competitors are, else the
 * curated lists and the institutional name rules (classify.ts).
 */
export function domainCategory(
  compiled: CompiledEntities,
  domain: string,
  owners: readonly number[] = ownersOfDomain(compiled, domain),
): Category {
  if (owners.length === 0) return classifyExternal(domain);
  return owners.some((o) => compiled.entities[o].kind === 'brand') ? 'you' : 'competitor';
}

const DOMAIN_MEMO_MAX = 20_000;

/** Owners and category of a cited domain, memoised per compiled brand. */
function domainInfo(compiled: CompiledEntities, domain: string): DomainInfo {
  let info = compiled.domainMemo.get(domain);
  if (info === undefined) {
    const owners = ownersOfDomain(compiled, domain);
    info = { owners, category: domainCategory(compiled, domain, owners) };
    if (compiled.domainMemo.size >= DOMAIN_MEMO_MAX) compiled.domainMemo.clear();
    compiled.domainMemo.set(domain, info);
  }
  return info;
}

// What analysis derives from a parsed URL, kept in the parsed URL's memo slot: the URL cache shares
// parsed URLs, so a page cited again costs a comparison or two instead of a look-up. The domain's
// owners and category belong to one compiled brand; the article type to the title last seen.
interface UrlMemo {
  compiled: CompiledEntities;
  info: DomainInfo;
  /** null until the article type is first asked for. */
  title: string | null;
  type: ArticleType;
}

function urlMemo(parsed: ParsedCitationUrl, compiled: CompiledEntities): UrlMemo {
  let memo = parsed.memo as UrlMemo | undefined;
  if (memo === undefined) {
    memo = { compiled, info: domainInfo(compiled, parsed.domain), title: null, type: 'other' };
    parsed.memo = memo;
  } else if (memo.compiled !== compiled) {
    memo.compiled = compiled;
    memo.info = domainInfo(compiled, parsed.domain);
  }
  return memo;
}

function typeOf(parsed: ParsedCitationUrl, memo: UrlMemo, title: string): ArticleType {
  if (memo.title !== title) {
    memo.title = title;
    memo.type = articleTypeOf(parsed.domain, parsed.path, parsed.query, title);
  }
  return memo.type;
}

/**
 * Analyses one answer for every entity of its brand: one EntityFigures per entity (brand first,
 * then competitors in the order given) and one CitationFigures per distinct normalised URL.
 * `verdicts` (entity id -> the configured model's verdict, capture/sentiment-judge.ts) replace the built-in
 * sentiment of the entities named; an entity not named has none, whatever the model said.
 */
export function analyzeAnswer(
  answer: Pick<AnswerInput, 'text' | 'citations'>,
  compiled: CompiledEntities,
  verdicts?: ReadonlyMap<string, EntitySentiment>,
): AnswerAnalysis {
  const { entities } = compiled;
  const n = entities.length;

  // Mentions and positions; the mentions' spans feed the sentiment of the sentences naming them.
  const text = mentionText(answer.text);
  const spans: MentionSpan[] = [];
  const { counts } = scanMentions(compiled, text, spans);
  // Positions by first mention: the spans come in the order of the text (and never overlap, so two
  // entities never share a first offset), so each entity's first span gives its rank.
  const position = new Array<number>(n).fill(0);
  let rank = 0;
  for (const { owner } of spans) if (position[owner] === 0) position[owner] = ++rank;

  // Citations: de-duplicated by normalised URL; the first non-empty title is kept.
  const cited: { parsed: ParsedCitationUrl; title: string }[] = [];
  for (const c of answer.citations ?? []) {
    if (!c || typeof c.url !== 'string') continue;
    const parsed = parseCitationUrl(c.url);
    if (parsed) cited.push({ parsed, title: typeof c.title === 'string' ? c.title.trim() : '' });
  }
  const firsts = firstIndexes(cited, (c) => c.parsed.url);
  const kept: typeof cited = [];
  cited.forEach((c, i) => {
    const first = cited[firsts[i]];
    if (first === c) kept.push(c);
    else if (first.title === '' && c.title !== '') first.title = c.title;
  });

  const cites = new Array<number>(n).fill(0);
  const citations: CitationFigures[] = [];
  for (const { parsed, title } of kept) {
    const memo = urlMemo(parsed, compiled);
    const { owners, category } = memo.info;
    for (const o of owners) cites[o]++;
    citations.push({
      url: parsed.url,
      domain: parsed.domain,
      category,
      article_type: typeOf(parsed, memo, title),
      title,
    });
  }

  const figures: EntityFigures[] = entities.map((e, i) => ({
    entity_id: e.id,
    kind: e.kind,
    mentions: counts[i],
    position: position[i],
    citations: cites[i],
    score: visibilityScore(counts[i] > 0, cites[i] > 0, position[i]),
  }));
  const sentiments = entitySentiments(text, spans, n);
  if (verdicts) {
    for (let i = 0; i < n; i++) {
      const v = sentiments[i] && verdicts.get(entities[i].id);
      if (v) sentiments[i] = v;
    }
  }
  return { entities: figures, citations, sentiments };
}
