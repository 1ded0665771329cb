// Which items of a list repeat an earlier one's key: analysis de-duplicates an answer's citations
// by URL, and rows mark the first citation of each domain.

/** For each item, the index of the first item with the same key: its own index when it is that first. */
export function firstIndexes<T>(items: readonly T[], key: (item: T) => string): number[] {
  const seen = new Map<string, number>();
  return items.map((item, i) => {
    const k = key(item);
    const at = seen.get(k);
    if (at === undefined) seen.set(k, i);
    return at ?? i;
  });
}
