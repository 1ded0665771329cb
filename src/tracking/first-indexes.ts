// Which items of a short list repeat an earlier one's key: analysis de-duplicates an answer's
// citations by URL, and rows mark the first citation of each domain.

/**
 * Up to this many items, the ones before are looked through, which costs less than hashing each
 * key (an answer cites a handful of pages); past it (up to 1,000 citations are accepted), a Map.
 */
const SCAN_MAX = 64;

/** For each item, the index of the first item with the same key: its own index when it is that first. */
export function firstIndexes<T>(items: readonly T[], key: (item: T) => string): number[] {
  const firsts = new Array<number>(items.length);
  if (items.length > SCAN_MAX) {
    const seen = new Map<string, number>();
    for (let i = 0; i < items.length; i++) {
      const k = key(items[i]);
      const at = seen.get(k);
      if (at === undefined) seen.set(k, i);
      firsts[i] = at ?? i;
    }
    return firsts;
  }
  for (let i = 0; i < items.length; i++) {
    const k = key(items[i]);
    let j = 0;
    while (j < i && key(items[j]) !== k) j++;
    firsts[i] = j;
  }
  return firsts;
}
