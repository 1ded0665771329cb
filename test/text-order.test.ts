// The figures' one order of text is UTF-8 byte order (ClickHouse's), also where surrogate pairs
// meet the last code points of the Basic Multilingual Plane, which JavaScript's `<` puts the other way.
// Lists people read go in English collation whatever the process's locale.
// test-process: shared
import { execFileSync } from 'node:child_process';
import test from 'ava';
import { byteOrder, humanOrder } from '../src/text-order.ts';

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

const names = ['b', 'A', 'a', 'B', 'Ärla', 'Zeta', 'Aa'];
const english = ['a', 'A', 'Aa', 'Ärla', 'b', 'B', 'Zeta'];

test('humanOrder is English collation', (t) => {
  t.deepEqual([...names].sort(humanOrder), english);
  t.deepEqual([...names].sort(byteOrder), ['A', 'Aa', 'B', 'Zeta', 'a', 'b', 'Ärla']);
});

test('humanOrder lists the same way under another locale, where localeCompare does not', (t) => {
  // A Danish process: String#localeCompare follows it ("Aa" is a letter after "Z"), humanOrder not.
  const module = new URL('../src/text-order.ts', import.meta.url).href;
  const script = `import { humanOrder } from ${JSON.stringify(module)};
const w = ${JSON.stringify(names)};
console.log(JSON.stringify([[...w].sort(humanOrder), [...w].sort((x, y) => x.localeCompare(y))]));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...process.env, LANG: 'da_DK.UTF-8', LC_ALL: 'da_DK.UTF-8' },
    encoding: 'utf8',
  });
  const [ours, theirs] = JSON.parse(out) as string[][];
  t.deepEqual(ours, english);
  t.notDeepEqual(theirs, english);
});
