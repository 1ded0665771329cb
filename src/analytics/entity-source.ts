// Where entity figures are read from. Whole-day ranges without a topic filter read the daily
// rollup (entity_daily); a topic filter (prompt ids) or a timestamp bound reads answer_entities.
// Both give the same sums: the rollup holds exactly the sign-weighted sums of the raw rows.
import { where, type Filters, type Where } from './filters.ts';

export type Measure = 'rows' | 'named' | 'cited' | 'mentions' | 'citations' | 'inv_position';

const RAW: Record<Measure, string> = {
  rows: 'sign',
  named: 'sign * (mentions > 0)',
  cited: 'sign * (citations > 0)',
  mentions: 'sign * mentions',
  citations: 'sign * citations',
  inv_position: 'if(position > 0, sign / position, 0)',
};

const ROLLUP: Record<Measure, string> = {
  rows: 'row_count',
  named: 'named_count',
  cited: 'cited_count',
  mentions: 'mention_sum',
  citations: 'citation_sum',
  inv_position: 'inv_position_sum',
};

export interface EntitySource extends Where {
  table: string;
  /** `sum` (or `sumIf` with a condition) of a measure, e.g. m('named', 'is_brand = 1'). */
  m(measure: Measure, condition?: string): string;
}

const wholeDays = (f: Filters) =>
  (!f.from || f.from.toISOString().endsWith('T00:00:00.000Z')) && (!f.to || f.to.toISOString().endsWith('T23:59:59.999Z'));

export function entitySource(f: Filters, opts: { needsPrompt?: boolean } = {}): EntitySource {
  const rollup = !f.promptIds && !opts.needsPrompt && wholeDays(f);
  const w = where(f);
  const expr = (m: Measure) => (rollup ? ROLLUP[m] : RAW[m]);
  return {
    ...w,
    table: rollup ? 'entity_daily' : 'answer_entities',
    m: (measure, condition) => (condition ? `sumIf(${expr(measure)}, ${condition})` : `sum(${expr(measure)})`),
  };
}
