// The two orders of text. Figures use UTF-8 byte order, which is how ClickHouse compares strings,
// so a list re-sorted here keeps the order of the query that cut it (ai-traffic.ts sorts a LIMITed
// top list again). UTF-8 byte order is code point order; JavaScript's `<` compares UTF-16 code
// units, which differs only where a surrogate pair (U+10000 and up) meets U+E000-U+FFFF.
// Names in lists people read (competitors tied on a count, topics, keywords, a digest's movers) go
// in English collation ("a" < "A" < "Ärla" < "b"), named here rather than left to the process's
// locale: String#localeCompare follows LANG, and under da_DK "Aa" sorts after "Zeta", so the same
// data would list differently from one machine to the next.

/** Negative, zero or positive as a sorts before, with or after b in UTF-8 byte order. */
export function byteOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // Both at or above the surrogates: move U+E000-U+FFFF below the surrogates, which stand for
    // code points above them all. Below 0xD800 code units already are code points.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

const english = new Intl.Collator('en');

/** Negative, zero or positive as a sorts before, with or after b in English collation, on any machine. */
export function humanOrder(a: string, b: string): number {
  return english.compare(a, b);
}
