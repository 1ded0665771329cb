// The function words the sentiment rules react to (docs/analysis.md, "Sentiment").

/** Flip the next rated word within three words: "not the best" is negative. */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'cannot',
  'without',
  'hardly',
  'barely',
  'nor',
  'neither',
  'none',
  'nothing',
  "isn't",
  "aren't",
  "wasn't",
  "weren't",
  "doesn't",
  "don't",
  "didn't",
  "won't",
  "wouldn't",
  "can't",
  "couldn't",
  "shouldn't",
  "hasn't",
  "haven't",
  "hadn't",
  'isnt',
  'doesnt',
  'dont',
  'wont',
  'cant',
]);

/** Strengthen the next rated word within two words. */
export const BOOSTERS: ReadonlySet<string> = new Set([
  'very',
  'really',
  'extremely',
  'highly',
  'incredibly',
  'super',
  'so',
  'truly',
  'genuinely',
  'remarkably',
  'exceptionally',
  'overly',
  'far',
  'much',
  'most',
  'more',
  'especially',
  'particularly',
  'consistently',
  'clearly',
]);

/** "less reliable", "fewer problems": turn the next rated word round; alone, they count against. */
export const DIMINISHERS: ReadonlySet<string> = new Set([
  'less',
  'fewer',
  'lower',
  'smaller',
  'few',
  'reduces',
  'reduce',
]);

/** Words that make "high", "low", "less" speak of price: "fees are high", "costs less". */
export const PRICE_NOUNS: ReadonlySet<string> = new Set([
  'price',
  'prices',
  'pricing',
  'fee',
  'fees',
  'cost',
  'costs',
  'bill',
  'bills',
  'billing',
  'charges',
  'subscription',
  'rates',
  'rate',
  'plans',
  'plan',
  'renewal',
]);

/** A contrast: the clause after it carries the point ("good but expensive"). */
export const CONTRASTS: ReadonlySet<string> = new Set(['but', 'however', 'yet', 'though']);

/** Start a subordinate clause when they open a sentence ("Although Acme costs more, ..."). */
export const SUBORDINATORS: ReadonlySet<string> = new Set(['although', 'though', 'while', 'despite', 'whilst']);

/** After these, a named entity is what the subject is compared with ("cheaper than X"). */
export const COMPARISON_MARKERS: ReadonlySet<string> = new Set([
  'than',
  'unlike',
  'behind',
  'outperforms',
  'outperform',
  'beats',
  'beat',
  'surpasses',
  'vs',
  'versus',
  'over',
]);

/** A clause opening with these speaks of the entity named just before it ("X, which ..."). */
export const RELATIVES: ReadonlySet<string> = new Set(['which', 'who', 'whose']);
