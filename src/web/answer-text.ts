// AI answers are markdown. The answer card renders a small subset of it: paragraphs, `-`/`*`/`1.`
// list items as lists, `**bold**`, `[text](url)` as its text (a link only when http(s)), `[3]`
// footnote markers as superscripts, and `#`..`###` headings as bold lines. Everything else stays
// text. The parser returns a tree of plain strings that the page renders as Preact elements, so
// nothing in an answer is ever read as HTML.
//
// Why not a markdown library: the small ones (marked, snarkdown, markdown-it) produce HTML strings
// or carry raw-HTML tokens the page would have to neutralise, and the full AST ones (micromark +
// mdast) would several-fold the app's script for five constructs. This subset is a page of code.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'strong'; children: Inline[] }
  /** `href` only when the target is http(s); otherwise the label is shown as text. */
  | { kind: 'link'; text: string; href?: string }
  | { kind: 'ref'; n: string };

export type Block =
  | { kind: 'paragraph'; content: Inline[] }
  | { kind: 'heading'; content: Inline[] }
  | { kind: 'list'; ordered: boolean; start?: number; items: Inline[][] };

const HEADING = /^ {0,3}#{1,3}[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*$/;
const BULLET = /^[ \t]*[-*+][ \t]+(.*)$/;
const NUMBERED = /^[ \t]*(\d{1,9})[.)][ \t]+(.*)$/;

// `**bold**`, `[label](target "title")` (a target may hold one level of parentheses, as
// Wikipedia's do), a `[3]` footnote marker.
const INLINE = new RegExp(
  String.raw`\*\*(?=\S)([\s\S]+?)(?<=\S)\*\*` +
    String.raw`|\[([^\]\n]+)\]\([ \t]*<?((?:[^\s()<>]|\([^\s()<>]*\))+)>?(?:[ \t]+"[^"\n]*")?[ \t]*\)` +
    String.raw`|\[(\d{1,3})\]`,
  'g',
);

const isWebUrl = (url: string) => /^https?:\/\/[^\s]/i.test(url);

/** The inline pieces of one block's text. */
export function parseInline(text: string, inStrong = false): Inline[] {
  const out: Inline[] = [];
  const push = (s: string) => {
    if (!s) return;
    const last = out[out.length - 1];
    if (last?.kind === 'text') last.text += s;
    else out.push({ kind: 'text', text: s });
  };
  let at = 0;
  for (const m of text.matchAll(INLINE)) {
    const start = m.index ?? 0;
    if (m[1] !== undefined && inStrong) continue;
    push(text.slice(at, start));
    if (m[1] !== undefined) out.push({ kind: 'strong', children: parseInline(m[1], true) });
    else if (m[2] !== undefined) {
      const target = m[3] ?? '';
      out.push(isWebUrl(target) ? { kind: 'link', text: m[2], href: target } : { kind: 'link', text: m[2] });
    } else out.push({ kind: 'ref', n: m[4] ?? '' });
    at = start + m[0].length;
  }
  push(text.slice(at));
  return out;
}

/** The blocks of an answer's text. */
export function parseAnswer(text: string): Block[] {
  const blocks: Block[] = [];
  let para: string[] = [];
  let list: { ordered: boolean; start?: number; items: string[] } | null = null;
  const flush = () => {
    if (para.length) blocks.push({ kind: 'paragraph', content: parseInline(para.join('\n')) });
    if (list) {
      const { ordered, start, items } = list;
      blocks.push({
        kind: 'list',
        ordered,
        ...(ordered && start !== 1 ? { start } : {}),
        items: items.map((i) => parseInline(i)),
      });
    }
    para = [];
    list = null;
  };
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (!line.trim()) {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ kind: 'heading', content: parseInline(heading[1] ?? '') });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      const ordered = !!numbered;
      const item = (bullet ? bullet[1] : numbered?.[2]) ?? '';
      if (!list || list.ordered !== ordered) {
        flush();
        list = { ordered, items: [] };
        if (numbered) list.start = Number(numbered[1]);
      }
      list.items.push(item);
      continue;
    }
    // A line right after a list item continues that item (markdown's lazy continuation).
    if (list) list.items[list.items.length - 1] += `\n${line.trim()}`;
    else para.push(line);
  }
  flush();
  return blocks;
}

/**
 * The first `max` visible characters of an answer (a summary), cut inside the tree so that a cut
 * never leaves half a `**` on screen; the cut ends with "…".
 */
export function clipBlocks(blocks: Block[], max: number): Block[] {
  let left = max;
  let cut = false;
  const clipInline = (xs: Inline[]): Inline[] => {
    const out: Inline[] = [];
    for (const x of xs) {
      if (cut) break;
      if (x.kind === 'strong') {
        out.push({ kind: 'strong', children: clipInline(x.children) });
        continue;
      }
      const len = x.kind === 'ref' ? x.n.length : x.text.length;
      if (len <= left) {
        out.push(x);
        left -= len;
        continue;
      }
      cut = true;
      const part = x.kind === 'ref' ? '' : x.text.slice(0, left).trimEnd();
      out.push(x.kind === 'link' && x.href ? { ...x, text: `${part}…` } : { kind: 'text', text: `${part}…` });
    }
    return out;
  };
  const out: Block[] = [];
  for (const b of blocks) {
    if (cut) break;
    if (b.kind === 'list') {
      const items: Inline[][] = [];
      for (const item of b.items) {
        if (cut) break;
        items.push(clipInline(item));
      }
      out.push({ ...b, items });
    } else out.push({ ...b, content: clipInline(b.content) });
  }
  return out;
}
