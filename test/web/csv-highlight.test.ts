// The app's CSV writer (RFC 4180, formula injection neutralised) and the marking of tracked names
// in answer texts, without a browser.
// test-process: shared
import test from 'ava';
import { toCsv } from '../../src/web/csv.ts';
import { highlight } from '../../src/web/highlight.ts';

test('CSV quotes what needs quoting, doubles quotes and ends every line with CRLF', (t) => {
  const csv = toCsv(
    ['name', 'note'],
    [
      ['Acme, Inc', 'said "best"'],
      ['two\nlines', null],
      ['plain', 3.5],
    ],
  );
  t.is(csv, 'name,note\r\n"Acme, Inc","said ""best"""\r\n"two\nlines",\r\nplain,3.5\r\n');
});

test('CSV text that a spreadsheet would run as a formula is neutralised; numbers stay numbers', (t) => {
  const csv = toCsv(['v'], [['=HYPERLINK("http://x")'], ['+1'], ['-2+3'], ['@SUM(A1)'], ['\tx'], [-4.2]]);
  t.deepEqual(csv.trimEnd().split('\r\n'), [
    'v',
    `"'=HYPERLINK(""http://x"")"`,
    "'+1",
    "'-2+3",
    "'@SUM(A1)",
    "'\tx",
    '-4.2',
  ]);
});

test('tracked names are marked as whole words, whatever their case, the longest first', (t) => {
  const names = new Map([
    ['Acme', 'a'],
    ['Acme Boots', 'a'],
    ['Globex', 'g'],
  ]);
  t.deepEqual(highlight('acme boots beat Globex; Acmeville is not Acme.', names), [
    { text: 'acme boots', entity: 'a' },
    { text: ' beat ' },
    { text: 'Globex', entity: 'g' },
    { text: '; Acmeville is not ' },
    { text: 'Acme', entity: 'a' },
    { text: '.' },
  ]);
  // Markup in a text is only text: the segments put back together are the text itself.
  const text = '<img src=x onerror=alert(1)> Acme (a.k.a. [Acme]) <script>Globex</script>';
  t.is(
    highlight(text, names)
      .map((s) => s.text)
      .join(''),
    text,
  );
  t.deepEqual(highlight('no names here', new Map()), [{ text: 'no names here' }]);
});
