// What the chosen set-up asks and costs (capture-estimate): captures a day and a month per
// platform, the cost of an answer and of a month with each provider, the total, fixed and adaptive
// sampling side by side, and every price with the public page it was read from and its date.
import type { Loaded } from '../load.ts';
import type { Result } from '../operation-types.ts';
import { DataTable } from '../components/data-table.tsx';
import { Empty, Panel, Pending } from '../components/page.tsx';
import { platformName } from '../../tenancy/tracked.ts';

const REASONS: Record<string, string> = {
  no_history: 'no history yet',
  interval_wide: 'interval wider than the target',
  interval_narrow: 'interval within the target',
  limit: "cut by the plan's capture limits",
  fixed: 'fixed',
};

export type Estimate = Result<'capture-estimate'>;

const usd = (n: number | null, digits = 2) => (n === null ? '—' : `$${n.toFixed(digits)}`);
const count = (n: number) => n.toLocaleString('en-US');

export function CostPreview(p: { estimate: Loaded<Estimate | null>; noPlatforms: boolean }) {
  const e = p.estimate.data;
  return (
    <Panel title="Cost before it is spent" id="cost-heading" busy={p.estimate.loading}>
      <Pending load={p.estimate} />
      {p.noPlatforms && <Empty>Choose at least one platform to see what its captures cost.</Empty>}
      {e && (
        <>
          <p class="cost-total">
            <span class="value">{usd(e.monthly_cost_usd)}</span> a month with the providers, for{' '}
            {count(e.captures_per_month)} answers ({count(e.captures_per_day)} a day over {e.days_per_month} days).
          </p>
          <DataTable
            caption="Captures and cost per platform"
            rowKey={(r) => r.platform}
            rows={e.platforms}
            empty="No platform chosen is on your plan."
            columns={[
              { key: 'platform', label: 'Platform', render: (r) => platformName(r.platform) },
              {
                key: 'model',
                label: 'Priced as',
                render: (r) => (r.priced_model ? <code>{r.priced_model}</code> : <span class="muted">per search</span>),
              },
              {
                key: 'captures_per_day',
                label: 'Captures a day',
                align: 'right',
                render: (r) => count(r.captures_per_day),
              },
              {
                key: 'captures_per_month',
                label: 'Captures a month',
                align: 'right',
                render: (r) => count(r.captures_per_month),
              },
              {
                key: 'cost_per_answer_usd',
                label: 'Per answer',
                align: 'right',
                render: (r) => usd(r.cost_per_answer_usd, 4),
              },
              { key: 'monthly_cost_usd', label: 'A month', align: 'right', render: (r) => usd(r.monthly_cost_usd) },
              {
                key: 'configured',
                label: 'Configured',
                render: (r) => (r.configured ? 'Yes' : <span class="muted">No: set {r.key_variable}</span>),
              },
            ]}
          />
          <SamplingSideBySide e={e} />
          {e.not_on_plan.length > 0 && (
            <p class="muted">Not on your plan, so not captured: {e.not_on_plan.map(platformName).join(', ')}.</p>
          )}
          {e.unpriced.length > 0 && (
            <p class="muted">No price in the table for {e.unpriced.map(platformName).join(', ')}: not in the total.</p>
          )}
          <details class="prices">
            <summary>Prices and their sources</summary>
            <p class="muted">
              {e.price_table === 'PROVIDER_PRICES'
                ? 'From the price table in PROVIDER_PRICES.'
                : 'From the price table shipped with Answerscope; PROVIDER_PRICES replaces it. The usage of one ' +
                  'answer is an assumption of the table.'}
            </p>
            <ul>
              {e.platforms.flatMap((r) =>
                r.prices.map((x) => (
                  <li key={`${r.platform}-${x.what}`}>
                    {platformName(r.platform)}: {x.what} ${x.usd} per {count(x.per)} —{' '}
                    <a href={x.source} rel="noreferrer noopener" target="_blank">
                      {new URL(x.source).hostname}
                    </a>{' '}
                    <span class="muted">
                      ({x.date_is === 'published' ? 'published' : 'read'} {x.date})
                    </span>
                  </li>
                )),
              )}
            </ul>
          </details>
        </>
      )}
    </Panel>
  );
}

/** Fixed and adaptive sampling's captures and cost, one row each; the brand's own marked. */
function SamplingSideBySide(p: { e: Estimate }) {
  const { e } = p;
  const a = e.adaptive;
  const rows = [
    {
      key: 'fixed',
      name: `Fixed: ${e.samples} a day`,
      day: e.captures_per_day,
      month: e.captures_per_month,
      cost: e.monthly_cost_usd,
    },
    {
      key: 'adaptive',
      name: `Adaptive: ${a.min_samples} to ${a.max_samples} a day, ±${a.target_half_width} points`,
      day: a.captures_per_day,
      month: a.captures_per_month,
      cost: a.monthly_cost_usd,
    },
  ];
  const reasons = Object.entries(a.by_reason)
    .map(([reason, n]) => `${count(n)} ${REASONS[reason] ?? reason}`)
    .join(', ');
  return (
    <>
      <DataTable
        caption="Fixed and adaptive sampling"
        rowKey={(r) => r.key}
        rows={rows}
        empty="No platform chosen is on your plan."
        columns={[
          {
            key: 'name',
            label: 'Sampling',
            render: (r) => (
              <>
                {r.name} {r.key === e.sampling && <span class="badge ok">in use</span>}
              </>
            ),
          },
          { key: 'day', label: 'Captures a day', align: 'right', render: (r) => count(r.day) },
          { key: 'month', label: 'Captures a month', align: 'right', render: (r) => count(r.month) },
          { key: 'cost', label: 'A month', align: 'right', render: (r) => usd(r.cost) },
        ]}
      />
      <p class="muted">
        Adaptive takes the most a day while a prompt's mention rate over its last 28 days is less sure than the target,
        and the fewest once it is{reasons ? `; today: ${reasons}` : ''}. A month is 30 days like today.
      </p>
    </>
  );
}
