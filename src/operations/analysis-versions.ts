// Every analytics result lists the `analysis_versions` of the rows its figures were computed from
// (docs/metrics.md "Provenance"), so a figure can be reproduced and a change of analysis is seen:
// one wrapper around the analytics operations' declarations instead of a field in each. Figures
// read a brand's live analysis generation only, so the list holds that one version (or `import`,
// for figures of answers imported from another tracker, `source=NAME`).
import { z } from 'zod';
import { analysisVersion } from '../analytics/analysis-version.ts';
import { type Method, operation, type Operation } from './registry.ts';
import { IMPORTED_GENERATION } from '../stores/generations.ts';
import { DEFAULT_SOURCES } from '../tracking/types.ts';

/** Whether a figure's `source` names another tracker, whose answers keep the analysis of their import. */
const importedSource = (p: unknown) => {
  const source = (p as { source?: unknown }).source;
  return typeof source === 'string' && !(DEFAULT_SOURCES as readonly string[]).includes(source);
};

export const ANALYSIS_VERSIONS_DESCRIPTION =
  "The analysis versions of the answers' rows behind the figures (an answer's analysis_version); " +
  'a re-analysis changes it';

/** The operation, its result extended with `analysis_versions` (read with the brand, before its figures). */
export function withAnalysisVersions<
  P extends z.ZodType<{ brand_id: string }>,
  S extends z.ZodRawShape,
  const N extends string,
  const M extends Method,
>(op: Operation<P, z.ZodObject<S>, N, M>) {
  const result = op.result.extend({
    analysis_versions: z.array(z.string()).describe(ANALYSIS_VERSIONS_DESCRIPTION),
  });
  return operation({
    ...op,
    result,
    run: async (ctx, p) => {
      const brand = await ctx.brand(p.brand_id);
      const figures = await op.run(ctx, p);
      // The declared result is the operation's own with the one field added.
      const generation = importedSource(p) ? IMPORTED_GENERATION : brand.analysis_generation;
      return { ...(figures as object), analysis_versions: [analysisVersion(generation)] } as z.input<typeof result>;
    },
  });
}
