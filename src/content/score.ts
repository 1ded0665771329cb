// The opportunity score (docs/content.md): 0-100 from three signals of a prompt, each 0-1.
//
//   score  = 100 x (0.3 x volume + 0.4 x gap + 0.3 x presence), one decimal
//   volume = log10(1 + est_ai_volume) / log10(1 + 10 000), capped at 1; 0.5 when no keyword of the
//            prompt has an imported volume (demand unknown, neither pushed up nor down)
//   gap    = (best competitor's AI visibility score - the brand's) / 100, at least 0
//   presence = share of the prompt's answers that name or cite a competitor and not the brand
//
// impact: high from 60, medium from 35, else low.
import { round } from '../analytics/formulas.ts';

export const SCORE_FORMULA = '100 x (0.3 x volume + 0.4 x gap + 0.3 x presence)';
/** Monthly AI searches at which the volume signal reaches 1. */
export const VOLUME_CEILING = 10_000;
export const UNKNOWN_VOLUME = 0.5;

export type Impact = 'high' | 'medium' | 'low';

export interface ScoreInputs {
  /** est_ai_volume of the prompt, or null when no imported volume matched it. */
  estAiVolume: number | null;
  brandScore: number;
  bestCompetitorScore: number;
  gapAnswers: number;
  answers: number;
}

export interface Score {
  score: number;
  impact: Impact;
  volume: number;
  gap: number;
  presence: number;
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

export function volumeSignal(estAiVolume: number | null): number {
  if (estAiVolume === null) return UNKNOWN_VOLUME;
  return clamp01(Math.log10(1 + Math.max(0, estAiVolume)) / Math.log10(1 + VOLUME_CEILING));
}

export const impactOf = (score: number): Impact => (score >= 60 ? 'high' : score >= 35 ? 'medium' : 'low');

export function opportunityScore(i: ScoreInputs): Score {
  const volume = volumeSignal(i.estAiVolume);
  const gap = clamp01((i.bestCompetitorScore - i.brandScore) / 100);
  const presence = i.answers > 0 ? clamp01(i.gapAnswers / i.answers) : 0;
  const score = round(100 * (0.3 * volume + 0.4 * gap + 0.3 * presence), 1);
  return { score, impact: impactOf(score), volume: round(volume, 3), gap: round(gap, 3), presence: round(presence, 3) };
}
