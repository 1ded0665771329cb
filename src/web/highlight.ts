// The tracked names in an answer's text, found as whole words whatever their case, so the page can
// wrap them in <mark> as text nodes (never as HTML): the text is split, not rewritten.

export interface Segment {
  text: string;
  /** The tracked entity the segment names, when it is a match. */
  entity?: string;
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` cut into plain and matched segments. `names` maps each name (or alias) to the entity it
 * stands for; the longest name wins where two overlap ("Acme Boots" before "Acme").
 */
export function highlight(text: string, names: Map<string, string>): Segment[] {
  const list = [...names.keys()].filter((n) => n.trim()).sort((a, b) => b.length - a.length);
  if (!list.length || !text) return [{ text }];
  const lower = new Map([...names].map(([n, e]) => [n.toLowerCase(), e]));
  const re = new RegExp(`(?<![\\p{L}\\p{N}])(${list.map(escapeRe).join('|')})(?![\\p{L}\\p{N}])`, 'giu');
  const out: Segment[] = [];
  let at = 0;
  for (const m of text.matchAll(re)) {
    const start = m.index ?? 0;
    if (start > at) out.push({ text: text.slice(at, start) });
    out.push({ text: m[0], entity: lower.get(m[0].toLowerCase()) });
    at = start + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at) });
  return out;
}
