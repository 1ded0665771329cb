// The markdown subset of AI answers (src/web/answer-text.ts), without a browser: what becomes a
// paragraph, a list, bold, a link or a footnote marker, and that everything else stays text.
// test-process: shared
import test from 'ava';
import { type Block, clipBlocks, parseAnswer, parseInline } from '../../src/web/answer-text.ts';

const text = (t: string) => ({ kind: 'text', text: t });

test('paragraphs are split on blank lines; a single line break stays inside the paragraph', (t) => {
  t.deepEqual(parseAnswer('One\ntwo\n\n\nThree\r\n'), [
    { kind: 'paragraph', content: [text('One\ntwo')] },
    { kind: 'paragraph', content: [text('Three')] },
  ]);
});

test('-, * and numbered items become lists; a change of kind starts a new list', (t) => {
  const blocks = parseAnswer('Best boots:\n- **Acme** Trail\n* Globex Peak\n  waterproof\n3. first\n4) second');
  t.deepEqual(blocks, [
    { kind: 'paragraph', content: [text('Best boots:')] },
    {
      kind: 'list',
      ordered: false,
      items: [[{ kind: 'strong', children: [text('Acme')] }, text(' Trail')], [text('Globex Peak\nwaterproof')]],
    },
    { kind: 'list', ordered: true, start: 3, items: [[text('first')], [text('second')]] },
  ]);
  t.false('start' in (parseAnswer('1. a\n2. b')[0] as object), 'a list from 1 needs no start');
});

test('headings # to ### are heading lines; deeper ones and #tags stay text', (t) => {
  t.deepEqual(parseAnswer('# Top\n### Pick ##\n#### deep\n#tag'), [
    { kind: 'heading', content: [text('Top')] },
    { kind: 'heading', content: [text('Pick')] },
    { kind: 'paragraph', content: [text('#### deep\n#tag')] },
  ]);
});

test('a link is its text, with a target only when http(s); [3] is a footnote marker', (t) => {
  t.deepEqual(parseInline('See [Acme](https://acme.example/a "A") [3] and [x](javascript:alert(1)) [y](/rel)'), [
    text('See '),
    { kind: 'link', text: 'Acme', href: 'https://acme.example/a' },
    text(' '),
    { kind: 'ref', n: '3' },
    text(' and '),
    { kind: 'link', text: 'x' },
    text(' '),
    { kind: 'link', text: 'y' },
  ]);
  t.deepEqual(parseInline('[W](https://en.wikipedia.org/wiki/Boot_(footwear))'), [
    { kind: 'link', text: 'W', href: 'https://en.wikipedia.org/wiki/Boot_(footwear)' },
  ]);
  const data = '[data](data:text/html,<script>alert(1)</script>)';
  t.deepEqual(parseInline(data), [text(data)]);
});

test('HTML, script and unmatched markers are text, character for character', (t) => {
  const hostile = `Acme <img src=x onerror="window.__xss=1"><script>window.__xss=2</script> ** not bold** _x_ \`code\``;
  t.deepEqual(parseAnswer(hostile), [{ kind: 'paragraph', content: [text(hostile)] }]);
});

test('bold holds links but not another bold; bold needs text right inside its markers', (t) => {
  t.deepEqual(parseInline('**[Acme](https://a.example)** and ** b **'), [
    { kind: 'strong', children: [{ kind: 'link', text: 'Acme', href: 'https://a.example' }] },
    text(' and ** b **'),
  ]);
});

test('a clipped answer cuts inside the tree, ends with … and never shows half a marker', (t) => {
  const blocks = parseAnswer('**Acme Trail** is best.\n\n- one\n- two');
  t.deepEqual(clipBlocks(blocks, 8), [
    { kind: 'paragraph', content: [{ kind: 'strong', children: [text('Acme Tra…')] }] },
  ] as Block[]);
  t.deepEqual(clipBlocks(blocks, 23), [
    { kind: 'paragraph', content: [{ kind: 'strong', children: [text('Acme Trail')] }, text(' is best.')] },
    { kind: 'list', ordered: false, items: [[text('one')], [text('t…')]] },
  ] as Block[]);
  t.deepEqual(clipBlocks(blocks, 1000), blocks);
});
