// Where entity figures are read from: the smallest table that has every column the query groups
// or filters by. The daily rollups (entity_daily, prompt_daily) hold exactly the sign-weighted
// sums of answer_entities, so all three give the same figures; a timestamp bound (not a whole day)
// always reads answer_entities, which alone has collected_at, and so does a read by source (the
// rollups keep none).
import type { Filters } from './filters.ts';
import { type AnalysisTable, wholeDays } from '../stores/scoped-query.ts';

export type Measure = 'rows' | 'named' | 'cited' | 'mentions' | 'citations' | 'inv_position';
export type Dimension = 'entity_id' | 'is_brand' | 'prompt_id' | 'platform' | 'model' | 'region';

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

/** Rollups, smallest first, with the dimensions each keeps (besides brand and day). */
const ROLLUPS: { table: AnalysisTable; dims: Dimension[] }[] = [
  { table: 'entity_daily', dims: ['entity_id', 'is_brand', 'platform', 'model', 'region'] },
  { table: 'prompt_daily', dims: ['prompt_id', 'is_brand'] },
];

/** The table to read, scoped to the filters: select() takes it as its FROM. */
export interface EntitySource {
  table: AnalysisTable;
  scope: Filters;
  /** `sum` (or `sumIf` with a condition) of a measure, e.g. m('named', 'is_brand = 1'). */
  m(measure: Measure, condition?: string): string;
}

/**
 * `dims`: the columns the query itself groups or filters by. `raw` forces answer_entities, for
 * callers that group by a column no rollup keeps.
 */
export function entitySource(f: Filters, dims: Dimension[], opts: { raw?: boolean } = {}): EntitySource {
  const needed = new Set<Dimension>(dims);
  if (f.models?.length) needed.add('model');
  if (f.region) needed.add('region');
  if (f.promptIds) needed.add('prompt_id');
  const rollup =
    wholeDays(f) && !opts.raw && !f.source
      ? ROLLUPS.find((r) => [...needed].every((d) => r.dims.includes(d)))
      : undefined;
  const expr = (m: Measure) => (rollup ? ROLLUP[m] : RAW[m]);
  return {
    table: rollup?.table ?? 'answer_entities',
    scope: f,
    m: (measure, condition) => (condition ? `sumIf(${expr(measure)}, ${condition})` : `sum(${expr(measure)})`),
  };
}
