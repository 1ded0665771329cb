// The figures' one order of text is UTF-8 byte order (ClickHouse's), also where surrogate pairs
// meet the last code points of the Basic Multilingual Plane, which JavaScript's `<` puts the other way.
import test from 'ava';
import { byteOrder } from '../../src/analytics/text-order.ts';

const sign = (x: number) => Math.sign(x);
const bytes = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

test('byteOrder agrees with comparing the UTF-8 bytes', (t) => {
  // ASCII, Latin, CJK, U+E000-U+FFFF and astral characters, as prefixes of one another too.
  const alphabet = ['a', 'B', 'z', 'é', '中', '\ue000', '\uff5e', '\uffff', '😀', '𝒜', '-', ''];
  const words: string[] = [];
  for (const x of alphabet) for (const y of alphabet) words.push(x + y, `${x}a${y}`);
  for (const a of words) for (const b of words) t.is(sign(byteOrder(a, b)), sign(bytes(a, b)), `${a} vs ${b}`);
});

test('where UTF-16 order differs, byteOrder follows the bytes', (t) => {
  // U+FF5E (fullwidth tilde) is below U+1F600 in code points and bytes, above it in UTF-16 units.
  t.true('\uff5e' > '😀');
  t.true(byteOrder('\uff5e', '😀') < 0);
  t.deepEqual(['😀.example', 'ｚ.example', 'a.example'].sort(byteOrder), ['a.example', 'ｚ.example', '😀.example']);
});
