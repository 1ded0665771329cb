// What each figure the app shows means: one name and one definition per figure, held here once and
// shown on demand by the `About <name>` control (components/about.tsx). docs/metrics.md, "The figures
// on screen", carries the same texts word for word (test/web/figure-definitions.test.ts holds them
// equal), so the page and the documentation cannot drift apart.

export const FIGURE_DEFINITIONS = {
  'AI visibility score':
    'A 0-100 score over the answers in range: 100 × (0.6 × mention rate + 0.25 × citation rate + 0.15 × ' +
    'position factor), the position factor being the mean of 1/position over the answers naming the name. ' +
    'Computed the same way for the brand and for each competitor over the same answers; changes are in points ' +
    '(pts).',
  'Mention rate': 'The share of the answers in range that name it at least once, in %. Changes are in points (pts).',
  'Citation rate':
    'The share of the answers in range that cite at least one page on its domains, in %. Changes are in points (pts).',
  'Share of voice':
    "The brand's mentions as a share of all mentions of the brand and its tracked competitors in the answers " +
    'in range, in %. Changes are in points (pts).',
  'Average position':
    'Where the brand ranks among the tracked names an answer mentions (the brand and its competitors, by first ' +
    'mention; 1 = named first), averaged over the answers naming it. Brands you do not track are not counted, ' +
    'so an answer listing others first can still rank it 1. Lower is better.',
  'Net sentiment':
    'Over the answers naming the brand: the share speaking of it positively minus the share speaking of it ' +
    'negatively, from -100 to 100. Changes are in points (pts).',
  'Citation gap':
    'The gap answers name at least one competitor and not the brand. For each source they cite (your own sites ' +
    'left out): the gap answers citing it, the answers naming the brand citing it, and the gap share, gap ' +
    'answers / (gap answers + brand answers) in %.',
} as const;

export type FigureName = keyof typeof FIGURE_DEFINITIONS;

/** A column or heading naming a figure: only a defined name type-checks, so a table cannot rename it. */
export const figureName = (name: FigureName): string => name;
