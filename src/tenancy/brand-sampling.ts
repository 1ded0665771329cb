// How a brand's daily capture samples, as stored (brands' sampling columns, postgres/091) and as
// the API and workspace files say it (workspace-fields.ts `sampling`).
/** The sampling columns of brands (postgres/091_brand_sampling.sql). */
export interface SamplingColumns {
  sampling: 'fixed' | 'adaptive';
  /** NULL: the server's TRACKING_SAMPLES. */
  samples: number | null;
  min_samples: number;
  max_samples: number | null;
  target_half_width: number;
}
export const SAMPLING_COLUMNS = 'sampling, samples, min_samples, max_samples, target_half_width';

/** A brand's sampling with every value filled in (a `Sampling` of workspace-fields.ts). */
export type BrandSampling =
  | { mode: 'fixed'; samples: number }
  | { mode: 'adaptive'; min_samples: number; max_samples: number; target_half_width: number };

/** How the brand samples, as the API and workspace files say it; `serverSamples` is TRACKING_SAMPLES. */
export function samplingOf(c: SamplingColumns, serverSamples: number): BrandSampling {
  return c.sampling === 'adaptive'
    ? {
        mode: 'adaptive',
        min_samples: c.min_samples,
        max_samples: c.max_samples ?? c.min_samples,
        target_half_width: Number(c.target_half_width),
      }
    : { mode: 'fixed', samples: c.samples ?? serverSamples };
}
