// The answers of the citations and citation-gap operations as the citations page and the overview's
// panels read them (docs/api.md), and the gap's competitors as one CSV cell.
import type { Result } from '../operation-types.ts';

export type CitationFigures = Result<'citations'>;
export type Gap = Result<'citation-gap'>;
export type GapDomain = Gap['domains'][number];

/**
 * Why a gap table is empty, in words: no answers at all is never "no gap" (docs/api.md section 24);
 * answers but no gap answer, or gap answers that cite nothing, say so.
 */
export function gapEmptyReason(totals: Gap['totals']): string {
  if (totals.answers === 0) return 'No answers in this range, so there is nothing to compare: no gap can be read.';
  if (totals.gap_answers === 0)
    return `None of the ${totals.answers} answers in this range names a competitor without naming you: no gap.`;
  return `The ${totals.gap_answers} answers naming a competitor and not you cite no source other than your own.`;
}

/** "Hooli (3); Initech (1)": the competitors named beside a gap domain. */
export const competitorsCsv = (d: GapDomain) => d.competitors.map((c) => `${c.name} (${c.answers})`).join('; ');
