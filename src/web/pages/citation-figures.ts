// The shapes of the citations and citation-gap operations as the citations page and the overview's
// panels read them (docs/api.md), and the gap's competitors as one CSV cell.

export interface CitationFigures {
  totals: {
    domains: number;
    urls: number;
    citations: number;
    results_with_citations: number;
    avg_citations_per_result: number | null;
  };
  source_type_breakdown: { category: string; count: number; pct: number }[];
  top_domains: {
    domain: string;
    category: string;
    total_citations: number;
    results_citing: number;
    usage_pct: number;
    models: string[];
  }[];
  top_urls: {
    url: string;
    domain: string;
    category: string;
    title: string;
    total_citations: number;
    results_citing: number;
    usage_pct: number;
  }[];
}

export interface Gap {
  totals: { answers: number; gap_answers: number; domains: number };
  domains: GapDomain[];
}

export interface GapDomain {
  domain: string;
  category: string;
  gap_answers: number;
  brand_answers: number;
  gap_share: number;
  competitors: { competitor_id: string; name: string; answers: number }[];
  top_urls: { url: string; title: string; gap_answers: number }[];
}

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
