// The audit's scores and recommendations from its signals (the formula of docs/audits.md):
//   category score = sum(w_s * score_s) / sum(w_s) over the category's evaluated (non-na) signals
//   totalScore     = 100 * sum(W_c * category_c) / sum(W_c) over categories with an evaluated signal
//   expected gain  = 100 * W_c / sum(W_c) * w_s / sum(w_s in c) * (1 - score_s)
// so the gains of all signals add up to 100 - totalScore: each is the points that fixing it is worth.
import { CATEGORIES, CATEGORY_WEIGHTS, type Category } from './categories.ts';
import { RUBRIC } from './rubric.ts';
import type { Signal } from './signals/types.ts';

export interface Recommendation {
  signal: string;
  category: Category;
  status: 'warn' | 'fail';
  /** Points of totalScore gained by making this signal pass. */
  expectedGain: number;
  fix: string;
  why: string;
}

export interface AuditScore {
  totalScore: number;
  /** 0-100 per category; null when none of its signals could be evaluated. */
  categoryScores: Record<Category, number | null>;
  signalsEvaluated: number;
  signalsTotal: number;
  recommendations: Recommendation[];
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export function scoreSignals(signals: Signal[]): AuditScore {
  const evaluated = signals.filter((s) => s.status !== 'na');
  const weightIn = new Map<Category, number>();
  const sumIn = new Map<Category, number>();
  for (const s of evaluated) {
    const w = RUBRIC[s.key].weight;
    weightIn.set(s.category, (weightIn.get(s.category) ?? 0) + w);
    sumIn.set(s.category, (sumIn.get(s.category) ?? 0) + w * s.score);
  }
  const categoryScores = {} as Record<Category, number | null>;
  let weightSum = 0;
  let total = 0;
  for (const c of CATEGORIES) {
    const w = weightIn.get(c);
    if (!w) {
      categoryScores[c] = null;
      continue;
    }
    const score = sumIn.get(c)! / w;
    categoryScores[c] = round1(100 * score);
    weightSum += CATEGORY_WEIGHTS[c];
    total += CATEGORY_WEIGHTS[c] * score;
  }
  const recommendations: Recommendation[] = evaluated
    .filter((s) => s.status === 'warn' || s.status === 'fail')
    .map((s) => {
      const entry = RUBRIC[s.key];
      const gain =
        100 * (CATEGORY_WEIGHTS[s.category] / weightSum) * (entry.weight / weightIn.get(s.category)!) * (1 - s.score);
      return {
        signal: s.key,
        category: s.category,
        status: s.status as 'warn' | 'fail',
        expectedGain: gain,
        fix: entry.fix,
        why: entry.why,
      };
    })
    // Biggest gain first; ties in rubric order (Array.prototype.sort is stable).
    .sort((a, b) => b.expectedGain - a.expectedGain)
    .map((r) => ({ ...r, expectedGain: round1(r.expectedGain) }));
  return {
    totalScore: weightSum ? round1((100 * total) / weightSum) : 0,
    categoryScores,
    signalsEvaluated: evaluated.length,
    signalsTotal: signals.length,
    recommendations,
  };
}
