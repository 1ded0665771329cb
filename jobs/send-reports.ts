// send-reports: mails every report whose period has ended since it was last mailed (docs/app.md,
// "Reports by email"). On the schedule it runs every hour and sends those whose chosen UTC hour has
// come; `answerscope jobs run send-reports` sends every due one now. The figures are the API's own:
// each is read by running the operation (visibility-change, competitor-comparison, citation-gap) as
// the subscriber, at the report's dates, so a report shows what the app shows for the same filters.
// The mail goes through the invitations' path (src/runtime/mail.ts, SMTP_URL).
import type { z } from 'zod';
import type { Logger } from 'pino';
import type { Config } from '../src/config.ts';
import type { Stores } from '../src/stores/index.ts';
import { createMailer, type Mailer } from '../src/runtime/mail.ts';
import { runOperation } from '../src/operations/run.ts';
import { visibilityChange } from '../src/operations/visibility-change.ts';
import { competitorComparison } from '../src/operations/visibility.ts';
import { citationGap } from '../src/operations/citation-gap.ts';
import { round } from '../src/analytics/formulas.ts';
import { humanOrder } from '../src/text-order.ts';
import { listMembers } from '../src/tenancy/members.ts';
import { brandById } from '../src/tenancy/brands.ts';
import type { Identity } from '../src/tenancy/keys.ts';
import {
  claimPeriod,
  dueSubscriptions,
  lastPeriod,
  type Period,
  releasePeriod,
  type Subscription,
} from '../src/reports/subscriptions.ts';
import { type ReportFigures, reportMail } from './report-mail.ts';
import { defineJob } from './registry.ts';

/** Competitors and gap domains listed per report. */
export const REPORT_TOP = 5;

export interface ReportsContext {
  stores: Stores;
  config: Config;
  log: Logger;
  now(): Date;
}

type Change = z.output<typeof visibilityChange.result>;
type Comparison = z.output<typeof competitorComparison.result>;
type Gap = z.output<typeof citationGap.result>;

/** The address that ends a subscription: GET shows a button, POST (RFC 8058 one-click) ends it. */
export const unsubscribeUrl = (appUrl: string, token: string) => `${appUrl}/app/reports/unsubscribe/${token}`;

/** The figures of one report, read through the operations as the subscriber. */
export async function reportFigures(
  ctx: ReportsContext,
  identity: Identity,
  brand: { id: string; name: string },
  s: Pick<Subscription, 'frequency'>,
  period: Period,
): Promise<ReportFigures> {
  const deps = { stores: ctx.stores, config: ctx.config, log: ctx.log, now: ctx.now };
  const at = (from: string, to: string) => ({ brand_id: brand.id, date_from: from, date_to: to });
  const change = (await runOperation(deps, visibilityChange, at(period.from, period.to), identity)) as Change;
  const [now, before, gap] = (await Promise.all([
    runOperation(deps, competitorComparison, at(period.from, period.to), identity),
    runOperation(deps, competitorComparison, at(change.previous.date_from, change.previous.date_to), identity),
    runOperation(deps, citationGap, { ...at(period.from, period.to), limit: String(REPORT_TOP) }, identity),
  ])) as [Comparison, Comparison, Gap];
  const was = new Map(before.competitors.map((c) => [c.competitor_id, c.ai_visibility_score]));
  const movers = now.competitors
    .map((c) => {
      const previous = was.get(c.competitor_id) ?? null;
      const current = c.ai_visibility_score;
      const moved = current === null || previous === null ? null : round(current - previous, 1);
      return { competitor_id: c.competitor_id, name: c.name, current, previous, change: moved };
    })
    .filter((c): c is typeof c & { change: number } => c.change !== null && c.change !== 0)
    .sort((a, b) => Math.abs(b.change) - Math.abs(a.change) || humanOrder(a.name, b.name))
    .slice(0, REPORT_TOP);
  return {
    brand,
    frequency: s.frequency,
    period,
    change: { previous: change.previous, metrics: change.metrics },
    movers,
    gap: gap.domains.map((d) => ({ domain: d.domain, competitor_answers: d.competitor_answers })),
  };
}

async function sendOne(ctx: ReportsContext, mailer: Mailer, s: Subscription): Promise<'sent' | 'skipped'> {
  const member = (await listMembers(ctx.stores.pg, s.organization_id)).find((m) => m.user_id === s.user_id);
  const brand = await brandById(ctx.stores.pg, s.brand_id);
  // No longer a member, or the brand moved away: nothing of that organization is mailed to them.
  if (!member || !brand || brand.organization_id !== s.organization_id) return 'skipped';
  const period = lastPeriod(s.frequency, ctx.now());
  if (!(await claimPeriod(ctx.stores.pg, s.id, period))) return 'skipped';
  try {
    const identity: Identity = {
      keyId: null,
      userId: s.user_id,
      email: member.email,
      organizationId: s.organization_id,
    };
    const figures = await reportFigures(ctx, identity, { id: brand.id, name: brand.name }, s, period);
    const appUrl = ctx.config.publicUrl ?? s.app_url;
    const unsubscribe = unsubscribeUrl(appUrl, s.token);
    const mail = reportMail(figures, appUrl, unsubscribe);
    await mailer.send({
      to: member.email,
      ...mail,
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    return 'sent';
  } catch (err) {
    await releasePeriod(ctx.stores.pg, s.id, s.last_period_end);
    throw err;
  }
}

/** Sends the due reports; `hourReached`: only those whose chosen hour has come (the schedule). */
export async function sendReports(ctx: ReportsContext, opts: { hourReached: boolean }) {
  const mailer = createMailer(ctx.config.mail);
  const due = await dueSubscriptions(ctx.stores.pg, ctx.now(), opts.hourReached);
  if (!mailer) {
    if (due.length) ctx.log.warn({ due: due.length }, 'reports are due but SMTP_URL is unset: none sent');
    return { due: due.length, sent: 0, skipped: due.length, failed: 0, note: 'SMTP_URL is unset: nothing is mailed' };
  }
  let sent = 0;
  let skipped = 0;
  let failed = 0;
  for (const s of due) {
    try {
      if ((await sendOne(ctx, mailer, s)) === 'sent') sent++;
      else skipped++;
    } catch (err) {
      failed++;
      ctx.log.error({ err, subscription: s.id }, 'report mail failed');
    }
  }
  return { due: due.length, sent, skipped, failed };
}

export const sendReportsJob = defineJob({
  name: 'send-reports',
  schedule: '5 * * * *',
  slot: 'hour',
  description:
    'Mails the daily and weekly email reports whose period has ended since they were last sent: on the ' +
    "schedule at each subscriber's chosen UTC hour, from the command line all due ones now",
  run: (ctx, args) => sendReports(ctx, { hourReached: args.onSchedule === true }),
});
