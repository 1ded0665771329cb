// The plan's capture limits (docs/api.md section 1): answers the daily capture may plan for one
// organization, all its brands together, in a UTC day and in a calendar month. A day whose cells
// want more is cut to fit (tracking/capture/plan.ts), so sampling can never spend past them. Sized
// so the plan's active prompt limit (prompt-limit.ts) on every platform of the plan fits 5 samples
// a day in one region, and an average of 3 a day over a month.
import type { Plan } from './quotas.ts';

export interface CaptureLimits {
  daily: number;
  monthly: number;
}

export const CAPTURE_LIMITS: Record<Plan, CaptureLimits> = {
  starter: { daily: 500, monthly: 9_000 },
  growth: { daily: 17_500, monthly: 315_000 },
  business: { daily: 70_000, monthly: 1_260_000 },
};
