// Answer texts and cited pages of the simulated engine for prompts about a known product kind
// (products.ts): recommendation lists naming the tracked makers in the order the engine
// drew, each with a reason whose tone (praise, fault, plain) the engine chose, written the way each
// platform tends to write (numbered lists with headings, [n] source markers, short overview prose,
// hedged paragraphs), and citations to review, retail and forum pages about those products.
// Like text.ts, it draws only from the seeded generator it is given.
import type { CitationInput } from '../../types.ts';
import type { Entity } from '../../../tenancy/tracked.ts';
import { B64, type Ctx, digits, int, pick, type Rng, slug, token } from './text.ts';
import { type ProductKind, type SourcePage, SUBREDDITS } from './products.ts';

/** How a named entity is spoken of in one answer: 1 praised, -1 faulted, 0 described. */
export type Tone = 1 | 0 | -1;

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** A reason as a list item's text: "is light for ..." reads "Light for ...". */
const asItem = (why: string) => cap(why.replace(/^is /, ''));

/**
 * The model line an entity is usually named with: its own per brand (entities take consecutive
 * lines from an offset the brand's id gives), and now and then the next one.
 */
function lineOf(r: Rng, kind: ProductKind, c: Ctx, e: Entity): string {
  const id = c.entities[0].id;
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) >>> 0;
  const own = h + Math.max(0, c.entities.indexOf(e)) * 2; // two lines apart: "the next one" stays its own
  return kind.lines[(own + (r() < 0.3 ? 1 : 0)) % kind.lines.length];
}

/** A tracked maker with its model, as written: mostly "Name Model", sometimes an alias or a link. */
function productName(r: Rng, kind: ProductKind, c: Ctx, e: Entity): string {
  const line = lineOf(r, kind, c, e),
    k = r();
  if (k < 0.1 && e.aliases.length) return `${pick(r, e.aliases)} ${line}`;
  if (k < 0.2 && e.domains.length) return `[${e.name} ${line}](https://${e.domains[0]}/products/${slug(line)})`;
  if (k < 0.25 && e.domains.length) return `${e.name} ${line} (${e.domains[0]})`;
  return `${e.name} ${line}`;
}

function reason(r: Rng, kind: ProductKind, tone: Tone, used: Set<string>): string {
  const pool = tone > 0 ? kind.praise : tone < 0 ? kind.faults : kind.plain;
  let s = pick(r, pool);
  for (let i = 0; used.has(s) && i < pool.length; i++) s = pool[(pool.indexOf(s) + 1) % pool.length];
  used.add(s);
  return s;
}

interface Item {
  name: string; // as written
  plain: string; // the entity's name (or the untracked maker's) without markdown
  why: string;
  tone: Tone;
  tracked: boolean;
}

const INTROS = [
  'There is no single best choice for "{p}": fit and conditions matter as much as the brand. These are the ' +
    '{noun} that come up most often in reviews and hiker forums.',
  'Based on recent reviews and owner reports, these are the {noun} most worth a look in {y}.',
  'Here is a short list of {noun} that reviewers keep recommending, with what each does well and where it falls short.',
  'It depends on how and where you will use them, but a few {noun} stand out.',
];
const COFFEE_INTROS = [
  'The best espresso beans are the ones that suit your machine and grinder, but a few roasters come up ' +
    'again and again.',
  'For home espresso, freshness and roast level matter more than the name on the bag. That said, these are ' +
    'frequently recommended:',
  'Reviewers and home baristas tend to agree on a handful of espresso beans in {y}.',
];
const CLOSINGS = [
  'Prices and stock change often, so check the current price and the return policy before you buy.',
  'If you tell me your budget and where you will use them, I can narrow this down.',
  'Whatever you choose, reading recent owner reviews is worth the five minutes.',
  'Would you like me to compare prices across retailers?',
];

const PPLX_LEADS = [
  'Reviewers and owners most often recommend these {noun}:',
  'The {noun} that come up most in recent reviews and forum threads:',
  'Several {noun} stand out in {y} reviews:',
];

function fill(s: string, c: Ctx, kind: ProductKind): string {
  return s.replace('{p}', c.prompt).replace('{noun}', kind.noun).replace('{y}', String(c.year)).replace('{t}', c.topic);
}

/**
 * The answer text: `named` in this order with `tones[i]` for named[i]; some untracked makers mixed
 * in; the layout per platform. `nCites` > 0 lets Perplexity-style answers carry [n] markers.
 */
export function productText(c: Ctx, kind: ProductKind, named: Entity[], tones: Tone[], nCites: number): string {
  const r = c.r,
    used = new Set<string>();
  const items: Item[] = named.map((e, i) => ({
    name: productName(r, kind, c, e),
    plain: e.name,
    why: reason(r, kind, tones[i], used),
    tone: tones[i],
    tracked: true,
  }));
  if (r() < 0.45 || (!named.length && r() < 0.5)) {
    const o = int(r, 0, kind.others.length - 1),
      n = int(r, 1, 2);
    for (let i = 0; i < n; i++) {
      const maker = kind.others[(o + i) % kind.others.length],
        tone: Tone = r() < 0.7 ? 1 : 0;
      items.splice(int(r, Math.min(1, items.length), items.length), 0, {
        name: `${maker} ${kind.otherLines[(o + i) % kind.otherLines.length]}`,
        plain: maker,
        why: reason(r, kind, tone, used),
        tone,
        tracked: false,
      });
    }
  }
  if (items.length > 6) items.length = 6;
  const mark = () => (c.platform === 'perplexity' && nCites > 0 && r() < 0.75 ? ` [${int(r, 1, nCites)}]` : '');
  const coffee = kind.id === 'espresso-beans';
  const versus = / vs\.? /i.test(c.prompt) && named.length >= 2;
  const parts: string[] = [];
  // Chat assistants end with a word to the reader (Copilot offers more help); overviews just stop.
  const closing = () => {
    if (c.platform !== 'google_ai_overviews')
      parts.push(c.platform === 'copilot' ? CLOSINGS[3] : pick(r, CLOSINGS.slice(0, 3)));
  };

  if (!items.length) {
    // A general answer naming no maker at all.
    parts.push(`Rather than one brand, it helps to know what makes good ${kind.noun}:`);
    parts.push(kind.advice.filter(() => r() < 0.8).join('\n') || kind.advice[0]);
    closing();
    return finish(parts);
  }

  if (versus) {
    const [a, b] = items.filter((x) => x.tracked);
    parts.push(`Both ${a.plain} and ${b.plain} make capable ${kind.noun}, but they suit different people.`);
    parts.push(`- **${a.name}**: ${asItem(a.why)}.${mark()}\n- **${b.name}**: ${asItem(b.why)}.${mark()}`);
    const rest = items.filter((x) => x !== a && x !== b);
    if (rest.length) parts.push(`Also worth comparing: ${rest.map((x) => x.name).join(', ')}.`);
    parts.push(
      `**Verdict:** choose ${a.plain} if ${pick(r, kind.verdict[0])} matters most; ${b.plain} if you ` +
        `want ${pick(r, kind.verdict[1])}.`,
    );
    closing();
    return finish(parts);
  }

  const intro = fill(pick(r, coffee ? COFFEE_INTROS : INTROS), c, kind);
  const advice = () => kind.advice.filter(() => r() < 0.5).slice(0, 3);
  switch (c.platform) {
    case 'claude':
    case 'grok': {
      // Paragraphs, one maker per sentence, hedged.
      const lead = items[0];
      const lines = [
        lead.tone < 0
          ? `Opinions on the ${lead.name} are mixed: it ${lead.why}.`
          : c.platform === 'grok'
            ? `Straight answer: start with the ${lead.name}. It ${lead.why}.`
            : `I'd start with the ${lead.name}, which ${lead.why}.`,
      ];
      for (const x of items.slice(1))
        lines.push(r() < 0.6 ? `The ${x.name} ${x.why}.` : `Then there is the ${x.name}, which ${x.why}.`);
      parts.push(intro, lines.slice(0, 2).join(' '));
      if (lines.length > 2) parts.push(lines.slice(2).join(' '));
      // An advice bullet without its bold label: "- **Weight:** every gram ..." -> "every gram ...".
      if (r() < 0.5) parts.push(`One thing to keep in mind: ${pick(r, kind.advice).replace(/^- \*\*[^*]+\*\* /, '')}`);
      break;
    }
    case 'google_ai_overviews': {
      const [lead, ...rest] = items;
      parts.push(`The ${lead.name} is frequently recommended for ${kind.noun}: it ${lead.why}.`);
      if (rest.length) parts.push(rest.map((x) => `- ${x.name}: ${asItem(x.why)}.`).join('\n'));
      const a = advice();
      if (a.length) parts.push(`**What to look for**\n${a.join('\n')}`);
      return finish(parts); // overviews end without a closing line
    }
    case 'perplexity': {
      parts.push(`${fill(pick(r, PPLX_LEADS), c, kind)}${mark()}`);
      parts.push(items.map((x) => `- **${x.name}**: ${asItem(x.why)}.${mark()}`).join('\n'));
      break;
    }
    case 'gemini': {
      parts.push(
        intro,
        `**Top recommendations**\n${items.map((x) => `* **${x.name}**: ${asItem(x.why)}.`).join('\n')}`,
      );
      const a = advice();
      if (a.length) parts.push(`**Key considerations**\n${a.map((s) => s.replace(/^- /, '* ')).join('\n')}`);
      break;
    }
    default: {
      // ChatGPT, AI Mode, Copilot: a numbered list, sometimes under a heading, sometimes with tips.
      parts.push(intro);
      const list = items.map((x, i) => `${i + 1}. **${x.name}**: ${asItem(x.why)}.`).join('\n');
      parts.push(c.platform === 'chatgpt' && r() < 0.5 ? `### Top picks\n${list}` : list);
      const a = c.platform === 'copilot' ? [] : advice();
      if (a.length) parts.push(`**How to choose**\n${a.join('\n')}`);
    }
  }
  // A closing word on the first tracked pick, only when the answer spoke well of it.
  const lead = items.find((x) => x.tracked);
  if (lead && lead.tone > 0 && r() < 0.35)
    parts.push(
      `**Bottom line:** for most people the ${lead.name.replace(/\]\(.*\)/, '').replace('[', '')} is the safe pick.`,
    );
  closing();
  return finish(parts);
}

// Short answers get a sentence or two more, so texts stay a few hundred characters long.
const PADS = [
  'Treat any ranking as a starting point: what suits you depends on how you will use it.',
  'Recent owner reviews are the best guide to how a product holds up over time.',
];

/** Joins the parts, dropping optional middle sections until the answer fits 1,400 characters. */
function finish(parts: string[]): string {
  let text = parts.join('\n\n');
  while (text.length > 1400 && parts.length > 3) {
    parts.splice(parts.length - 2, 1);
    text = parts.join('\n\n');
  }
  for (let i = 0; text.length < 320 && i < PADS.length; i++) text += `\n\n${PADS[i]}`;
  return text;
}

// ---- cited pages ------------------------------------------------------------------------------
const CATS = ['editorial', 'forum', 'social', 'review', 'institutional', 'other'] as const;
// Product answers lean on specialist review sites (other) and forums more than on news.
const CAT_WEIGHTS = [0.16, 0.22, 0.12, 0.1, 0.06, 0.34];

function page(c: Ctx, kind: ProductKind, p: SourcePage, e: Entity): CitationInput {
  const r = c.r,
    line = lineOf(r, kind, c, e);
  const subs = SUBREDDITS[kind.id] ?? ['BuyItForLife'];
  const vals: Record<string, string> = {
    '{T}': c.topicTitle,
    '{t}': c.topic,
    '{ts}': slug(c.topic),
    '{tu}': slug(c.topic).replace(/-/g, '_'),
    '{tq}': c.topicTitle.replace(/\s+/g, '-'),
    '{y}': String(c.year),
    '{m}': String(int(r, 1, 12)).padStart(2, '0'),
    '{n}': String(int(r, 5, 14)),
    '{id}': token(r, 7),
    '{yt}': token(r, 11, B64),
    '{sub}': pick(r, subs),
    '{E}': e.name,
    '{es}': slug(e.name),
    '{ed}': e.domains[0] ?? `${slug(e.name)}.com`,
    '{L}': line,
    '{line}': slug(line),
    '{num}': digits(r, 6),
  };
  const sub = (s: string) => s.replace(/\{[a-zA-Z]+\}/g, (k) => vals[k] ?? k);
  return { url: sub(p.url), title: sub(p.title) };
}

/**
 * `count` cited pages: the tracked makers' own pages first (ownCite[i] is the chance for
 * c.entities[i]), then third-party pages by category, shuffled; no URL twice.
 */
export function productCitations(
  c: Ctx,
  kind: ProductKind,
  count: number,
  ownCite: readonly number[],
): CitationInput[] {
  const r = c.r,
    out: CitationInput[] = [];
  for (let i = 0; i < ownCite.length && out.length < count; i++) {
    const e = c.entities[i];
    if (!e.domains.length || r() >= ownCite[i]) continue;
    const p = page(c, kind, pick(r, kind.ownPages), e);
    out.push({ url: `https://${r() < 0.3 ? 'www.' : ''}${e.domains[0]}${p.url}`, title: p.title });
  }
  for (let guard = 0; out.length < count && guard < count * 4; guard++) {
    let k = r(),
      i = 0;
    while (i < CATS.length - 1 && k >= CAT_WEIGHTS[i]) k -= CAT_WEIGHTS[i++];
    const cit = page(c, kind, pick(r, kind.pages[CATS[i]]), pick(r, c.entities));
    // One page per URL, and per title: two forum threads titled alike read as one page cited twice.
    if (!out.some((x) => x.url === cit.url || x.title === cit.title)) out.push(cit);
  }
  for (let i = out.length - 1; i > 0; i--) {
    const j = (r() * (i + 1)) | 0;
    [out[i], out[j]] = [out[j], out[i]];
  }
  if (c.platform === 'chatgpt')
    for (const cit of out) if (r() < 0.3) cit.url += `${cit.url.includes('?') ? '&' : '?'}utm_source=chatgpt.com`;
  return out;
}
