// evaluate-alerts: compares each alert rule's metric over the last window_days complete UTC days
// with the window before, behind the sample-size and capture gates, and fires alert.fired once per
// episode (src/alerts/evaluate.ts, docs/alerts.md). Runs after the morning's tracking and before
// the daily digest, which lists the firings about the previous day.
// Prints {date, rules, fired, still_firing, cleared, gated, deliveries}.
import { defineJob } from './registry.ts';
import { runEvaluateAlerts } from '../src/alerts/evaluate.ts';

export const evaluateAlerts = defineJob({
  name: 'evaluate-alerts',
  schedule: '50 6 * * *',
  description:
    'Evaluates every alert rule on the last window_days complete UTC days against the window before; sends ' +
    'alert.fired once until the rule clears',
  run: (ctx, args) => runEvaluateAlerts(ctx.stores, ctx.log, args),
});
