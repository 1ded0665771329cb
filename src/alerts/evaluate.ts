// The daily evaluation of alert rules (the evaluate-alerts job, docs/alerts.md). For the run's
// date D each rule compares its metric over the last `window_days` complete UTC days (D-w .. D-1)
// with the window before; when both windows pass the gates (gates.ts) the condition decides:
//   true and the rule was not firing  -> it fires: the firing is stored and `alert.fired` queued
//   true and already firing           -> nothing new (one firing per episode)
//   false                             -> the rule clears (it may fire again later)
// A gated-out evaluation neither fires nor clears: too little data says nothing either way.
// The claim of (rule, D) and the firing with its deliveries are one transaction, so running the
// job twice for a day (or on two instances) fires nothing twice.
import type { Logger } from 'pino';
import type { Stores } from '../stores/index.ts';
import { round } from '../analytics/formulas.ts';
import { brandById, competitorsOf } from '../tenancy/brands.ts';
import { enqueueEvent } from '../webhooks/outbox.ts';
import { deliveriesQueued } from '../webhooks/worker.ts';
import { claimEvaluation, rulesDue, type RuleRow } from './rules.ts';
import { recordFiring, type Firing, type Window } from './firings.ts';
import { brandFigures, type MetricValue } from './metric-values.ts';
import { completenessOf, gate, type WindowCompleteness } from './gates.ts';
import { addDays } from '../instant.ts';

/** The current window (the `w` complete days before `date`) and the `w` days before it. */
export function alertWindows(date: string, w: number): { previous: Window; current: Window } {
  return {
    previous: { from: addDays(date, -2 * w), to: addDays(date, -w - 1) },
    current: { from: addDays(date, -w), to: addDays(date, -1) },
  };
}

/** Whether the rule's condition holds; changes are taken between the figures as the API rounds them. */
export function conditionHolds(rule: Pick<RuleRow, 'condition' | 'threshold'>, previous: number, current: number) {
  const change = round(current - previous, 1);
  switch (rule.condition) {
    case 'drops_by':
      return -change >= rule.threshold;
    case 'rises_by':
      return change >= rule.threshold;
    case 'below':
      return current < rule.threshold;
    case 'above':
      return current > rule.threshold;
  }
}

/** The rule as the `alert.fired` payload names it. */
export const ruleSummary = (r: Pick<RuleRow, 'id' | 'metric' | 'condition' | 'threshold' | 'window_days'>) => ({
  id: r.id,
  metric: r.metric,
  condition: r.condition,
  threshold: r.threshold,
  window_days: r.window_days,
});

/** The `data` of `alert.fired` (docs/api.md section 15). */
export const firedData = (f: Firing) => ({
  rule: ruleSummary({ ...f, id: f.rule_id }),
  brand_id: f.brand_id,
  metric: f.metric,
  previous: f.previous,
  current: f.current,
  n_previous: f.n_previous,
  n_current: f.n_current,
});

export interface EvaluationSummary {
  date: string;
  rules: number;
  fired: number;
  /** Conditions still true on a rule already firing. */
  still_firing: number;
  cleared: number;
  /** Evaluations that failed a gate (fewer than 20 answers, incomplete capture, no value). */
  gated: number;
  deliveries: number;
}

/** A brand under evaluation: its window figures and capture completeness, each read once per run. */
interface Target {
  figures: MetricValue;
  completeness: WindowCompleteness;
}

export async function runEvaluateAlerts(
  stores: Stores,
  log: Logger,
  args: { date: string; brandId?: string },
): Promise<EvaluationSummary> {
  const rules = await rulesDue(stores.pg, args.date, args.brandId);
  const out: EvaluationSummary = {
    date: args.date,
    rules: rules.length,
    fired: 0,
    still_firing: 0,
    cleared: 0,
    gated: 0,
    deliveries: 0,
  };
  const brands = new Map<string, Target | null>();
  for (const rule of rules) {
    if (!brands.has(rule.brand_id)) {
      const brand = await brandById(stores.pg, rule.brand_id);
      const figures = brand && brandFigures(stores.ch, brand, await competitorsOf(stores.pg, brand.id));
      brands.set(
        rule.brand_id,
        brand && figures ? { figures, completeness: completenessOf(stores.pg, brand.id) } : null,
      );
    }
    const target = brands.get(rule.brand_id);
    if (!target) continue; // deleted meanwhile: its rules went with it
    await evaluateRule(stores, log, rule, target, args.date, out);
  }
  if (out.deliveries) deliveriesQueued();
  return out;
}

async function evaluateRule(
  stores: Stores,
  log: Logger,
  rule: RuleRow,
  { figures, completeness }: Target,
  date: string,
  out: EvaluationSummary,
): Promise<void> {
  const windows = alertWindows(date, rule.window_days);
  const [previous, current] = await Promise.all([
    figures(rule.metric, windows.previous),
    figures(rule.metric, windows.current),
  ]);
  const verdict = await gate(completeness, [
    { window: windows.previous, value: previous },
    { window: windows.current, value: current },
  ]);
  const holds = verdict.pass && conditionHolds(rule, previous.value!, current.value!);
  const result = await stores.pg.tx(async (client) => {
    const claim = await claimEvaluation(client, rule.id, date, verdict.pass ? holds : null);
    if (!claim) return null;
    if (!verdict.pass || !holds || claim.wasFiring) return { claim, deliveries: 0 };
    const firing = await recordFiring(client, {
      rule,
      evaluatedOn: date,
      previousWindow: windows.previous,
      currentWindow: windows.current,
      previous: previous.value!,
      current: current.value!,
      nPrevious: previous.n,
      nCurrent: current.n,
    });
    if (!firing) return { claim, deliveries: 0 };
    const deliveries = await enqueueEvent(client, {
      organizationId: rule.organization_id,
      type: 'alert.fired',
      data: firedData(firing),
    });
    return { claim, deliveries, firing };
  });
  if (!result) return;
  if (!verdict.pass) out.gated += 1;
  else if (holds && result.claim.wasFiring) out.still_firing += 1;
  else if (holds) out.fired += 1;
  else if (result.claim.wasFiring) out.cleared += 1;
  out.deliveries += result.deliveries;
  log.debug(
    { ruleId: rule.id, date, verdict, previous, current, fired: Boolean(result.firing) },
    'alert rule evaluated',
  );
}
