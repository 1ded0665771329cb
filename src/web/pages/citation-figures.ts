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
  totals: { domains: number; answers: number };
  domains: GapDomain[];
}

export interface GapDomain {
  domain: string;
  category: string;
  competitor_answers: number;
  competitors: { competitor_id: string; name: string; answers: number }[];
  top_urls: { url: string; title: string; answers: number }[];
}

/** "Hooli (3); Initech (1)": the competitors named beside a gap domain. */
export const competitorsCsv = (d: GapDomain) => d.competitors.map((c) => `${c.name} (${c.answers})`).join('; ');
