// The formulas and rounding of docs/api.md section 3, in one place. Figures are computed from
// integer counts and one float sum (of 1/position), then rounded once, at the end.

/** Half-up rounding to `digits` decimals; the tiny nudge keeps 12.25 from becoming 12.2 when
 *  binary floating point stores it as 12.2499999... */
export function round(x: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(x * f * (1 + 2 ** -40)) / f;
}

export const roundOrNull = (x: number | null, digits: number) =>
  x === null || !Number.isFinite(x) ? null : round(x, digits);

/** Sums over one entity's per-answer rows (sign-weighted). */
export interface EntitySums {
  /** Answers where the entity is named / cited. */
  named: number;
  cited: number;
  mentions: number;
  citations: number;
  /** Sum of 1/position over the answers naming it. */
  invPosition: number;
}

export const emptySums = (): EntitySums => ({ named: 0, cited: 0, mentions: 0, citations: 0, invPosition: 0 });

/** Mean of 1/position over answers naming the entity; null if never named. Unrounded. */
export const positionFactor = (s: EntitySums) => (s.named > 0 ? s.invPosition / s.named : null);

/**
 * Mean of the per-answer scores over n answers. A per-answer score is
 * 100 x (0.6 named + 0.25 cited + 0.15/position), so the mean follows from the sums.
 */
export const meanScore = (s: EntitySums, n: number) =>
  n > 0 ? (60 * s.named + 25 * s.cited + 15 * s.invPosition) / n : null;

/**
 * The AI visibility score over n answers: 100 x (0.6 mentionRate + 0.25 citationRate + 0.15 pf),
 * with the position factor optionally damped by m/(m+20) (the trend's daily score).
 */
export function visibilityScore(s: EntitySums, n: number, opts: { damped?: boolean } = {}): number | null {
  if (n <= 0) return null;
  let pf = positionFactor(s) ?? 0;
  if (opts.damped) pf *= s.named / (s.named + 20);
  return 100 * (0.6 * (s.named / n) + 0.25 * (s.cited / n) + 0.15 * pf);
}

/** Share of voice in percent, 1 decimal; 0 when nobody was mentioned. */
export const shareOfVoice = (brand: number, competitors: number) =>
  brand + competitors === 0 ? 0 : round((100 * brand) / (brand + competitors), 1);
