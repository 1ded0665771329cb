// An answer's `analysis_version` (docs/metrics.md "Provenance"): which analysis its entity and
// citation rows, and so every figure counting them, come from. A brand's analysis is its
// generation (clickhouse/011_analysis_generation.sql): ingestion writes the live one, a re-analysis
// (the brand's entities changed) re-derives every answer into the next and switches to it, and
// figures read the live one only. So the version names the generation: re-analysis changes it,
// and a figure read twice under the same version was computed from the same rows' analysis.

import { IMPORTED_GENERATION } from '../stores/generations.ts';

/**
 * The analysis version of a brand's rows of this generation; `import` for answers imported from
 * another tracker, analysed once at their import (a re-analysis leaves them).
 */
export const analysisVersion = (generation: number) =>
  generation === IMPORTED_GENERATION ? 'import' : `gen-${generation}`;
