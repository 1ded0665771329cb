// Alert rules and their firings (docs/api.md section 15, docs/alerts.md): create, list and delete
// rules of a brand, and list what fired. REST and MCP; not part of the Metrics API (not figures).
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, cursor, isMissing, limit, oneOf, pathId } from './params.ts';
import { notFound } from '../errors.ts';
import { FLOAT64, fitsColumn } from '../column-numbers.ts';
import {
  CONDITIONS,
  createRule,
  deleteRule,
  listRules,
  METRICS,
  thresholdProblem,
  type RuleRow,
} from '../alerts/rules.ts';
import { listFirings } from '../alerts/firings.ts';

const NOT_FOUND = 'Alert rule not found';

/** A number as JSON sends it, or a numeric string as a form or query string would; absent is undefined. */
const numeric = (v: unknown) => (isMissing(v) ? undefined : typeof v === 'string' && v.trim() !== '' ? Number(v) : v);

/** A number; the range is checked with the metric. */
const threshold = z
  .preprocess(
    numeric,
    z
      .number({ error: (iss) => (iss.input === undefined ? 'threshold is required' : 'threshold must be a number') })
      .refine((n) => fitsColumn(n, FLOAT64), 'threshold must be a number'),
  )
  .describe(
    'Points. below/above: a level of the metric (0-100; net_sentiment -100 to 100). drops_by/rises_by: a ' +
      'change between the windows, more than 0 and at most 100 (net_sentiment 200)',
  );

const WINDOW_MESSAGE = 'window_days must be an integer from 1 to 90';
const windowDays = z
  .preprocess(
    numeric,
    z.number({ error: WINDOW_MESSAGE }).int(WINDOW_MESSAGE).min(1, WINDOW_MESSAGE).max(90, WINDOW_MESSAGE).optional(),
  )
  .transform((v) => v ?? 7)
  .describe('Days per window, 1-90 (default 7): the last window_days complete UTC days against the window before');

const metric = oneOf('metric', METRICS).describe(
  `One of: ${METRICS.join(', ')}. Rates, score and share of voice are percentages; net_sentiment is -100 to 100`,
);
const condition = oneOf('condition', CONDITIONS).describe(
  'drops_by / rises_by: the change in points from the previous window to the current one; below / above: the ' +
    'current window',
);

const Rule = z.object({
  id: z.string().uuid(),
  brand_id: z.string().uuid(),
  metric: z.enum(METRICS),
  condition: z.enum(CONDITIONS),
  threshold: z.number(),
  window_days: z.number().int(),
  firing: z.boolean().describe('Fired and not cleared yet: it fires again only after it clears'),
  evaluated_on: z.string().nullable().describe('Date of the last daily evaluation (YYYY-MM-DD), null before the first'),
  created_at: z.string(),
});

const view = (r: RuleRow) => ({
  id: r.id,
  brand_id: r.brand_id,
  metric: r.metric,
  condition: r.condition,
  threshold: r.threshold,
  window_days: r.window_days,
  firing: r.firing,
  evaluated_on: r.evaluated_on,
  created_at: new Date(r.created_at).toISOString(),
});

const Window = z.object({ from: z.string(), to: z.string() }).describe('UTC days, inclusive');

const Alert = z.object({
  id: z.string().uuid(),
  rule_id: z.string().uuid(),
  brand_id: z.string().uuid(),
  metric: z.enum(METRICS),
  condition: z.enum(CONDITIONS),
  threshold: z.number(),
  window_days: z.number().int(),
  evaluated_on: z.string().describe('The day of the evaluation that fired (the day after the current window)'),
  previous_window: Window,
  current_window: Window,
  previous: z.number().describe('The metric over the previous window, as the analytics endpoints give it'),
  current: z.number().describe('The metric over the current window'),
  n_previous: z.number().int().describe('Answers in the previous window'),
  n_current: z.number().int().describe('Answers in the current window'),
  created_at: z.string(),
});

export const createAlertRule = operation({
  name: 'create-alert-rule',
  method: 'POST',
  path: '/alert-rules',
  tool: 'create_alert_rule',
  write: true,
  says: ['explicit-request'],
  params: z
    .object({ brand_id: brandId, metric, condition, threshold, window_days: windowDays })
    .superRefine((p, ctx) => {
      const problem = thresholdProblem(p.metric, p.condition, p.threshold);
      if (problem) ctx.addIssue({ code: 'custom', path: ['threshold'], message: problem });
    }),
  result: Rule,
  description:
    'Creates an alert rule for a brand: the daily evaluation compares the metric over the last window_days ' +
    'complete days with the window before and sends the alert.fired webhook when the condition holds, only ' +
    'when both windows have at least 20 answers (and mostly complete capture); it fires once and again only ' +
    "after clearing. Run only at the user's explicit request.",
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const row = await createRule(ctx.stores.pg, {
      organizationId: brand.organization_id,
      brandId: brand.id,
      metric: p.metric,
      condition: p.condition,
      threshold: p.threshold,
      windowDays: p.window_days,
    });
    return view(row);
  },
});

export const alertRules = operation({
  name: 'alert-rules',
  method: 'GET',
  tool: 'list_alert_rules',
  params: z.object({ brand_id: brandId }),
  result: z.array(Rule),
  description: "A brand's alert rules, oldest first, each with whether it is firing and when it was last evaluated.",
  run: async (ctx, p) => (await listRules(ctx.stores.pg, (await ctx.brand(p.brand_id)).id)).map(view),
});

export const deleteAlertRule = operation({
  name: 'delete-alert-rule',
  method: 'DELETE',
  path: '/alert-rules/:id',
  tool: 'delete_alert_rule',
  idArg: 'rule_id',
  write: true,
  destructive: true,
  says: ['explicit-request'],
  errors: [{ status: 404, message: NOT_FOUND }],
  params: z.object({ id: pathId('rule_id').describe('The rule (UUID), as returned by list_alert_rules') }),
  result: z.object({ id: z.string().uuid(), deleted: z.literal(true) }),
  description: "Deletes an alert rule; its past firings stay listed. Run only at the user's explicit request.",
  run: async (ctx, p) => {
    if (!(await deleteRule(ctx.stores.pg, ctx.identity.organizationId, p.id))) throw notFound(NOT_FOUND);
    return { id: p.id.toLowerCase(), deleted: true as const };
  },
});

export const alerts = operation({
  name: 'alerts',
  method: 'GET',
  tool: 'list_alerts',
  params: z.object({ brand_id: brandId, limit: limit(1, 200, 50).describe('1-200, default 50'), cursor: cursor() }),
  result: z.object({
    alerts: z.array(Alert),
    next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last page'),
  }),
  description:
    "A brand's alert firings, newest first, each with both windows' values and answer counts. Page with cursor.",
  run: async (ctx, p) =>
    listFirings(ctx.stores.pg, (await ctx.brand(p.brand_id)).id, { limit: p.limit, cursor: p.cursor }),
});

/** In registration order. */
export const alertOperations = [createAlertRule, alertRules, deleteAlertRule, alerts];
