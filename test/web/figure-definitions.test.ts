// One name, one definition (docs/api.md section 24): every definition the app shows behind `About
// <figure>` is in docs/metrics.md word for word, under the figure's name, and the cards use only these names.
// test-process: shared
import fs from 'node:fs';
import test from 'ava';
import { FIGURE_DEFINITIONS } from '../../src/web/figure-definitions.ts';
import { CARDS } from '../../src/web/pages/overview/cards.tsx';

const docs = fs.readFileSync(new URL('../../docs/metrics.md', import.meta.url), 'utf8');

test("each definition is the metric documentation's text for that name", (t) => {
  const section = docs.split('## The figures on screen')[1]?.split('\n## ')[0] ?? '';
  t.true(section.length > 0, 'docs/metrics.md has the section');
  // A definition wraps onto indented lines (docs keep lines short): joined again with one space.
  const items = section.split(/\n(?=- )/).filter((s) => s.startsWith('- **'));
  const documented = items.map((item) => {
    const m = /^- \*\*(.+?)\*\*: ([\s\S]+)$/.exec(item.trim())!;
    return [m[1], m[2].replace(/\n\s+/g, ' ').trim()];
  });
  t.deepEqual(documented, Object.entries(FIGURE_DEFINITIONS));
});

test('every card is named as a defined figure', (t) => {
  for (const c of CARDS) t.true(c.title in FIGURE_DEFINITIONS, c.title);
});
