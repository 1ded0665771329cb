// Settings > Usage: the plan, the trial's end and this month's briefs, drafts and audits against
// their limits, as the usage operation gives them.
import { read } from '../../api.ts';
import { day } from '../../format.ts';
import { useLoad } from '../../load.ts';
import { PageHead, Pending } from '../../components/page.tsx';
import { QuotaCard } from '../../components/quota.tsx';

export function UsagePage() {
  const usage = useLoad(() => read('usage'), []);
  const u = usage.data;
  const month = u
    ? new Date(`${u.period}T00:00:00Z`).toLocaleDateString(undefined, {
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      })
    : '';
  return (
    <>
      <PageHead
        title="Usage"
        intro={u ? `${u.organization}, ${month} (UTC). Limits reset on the first of each month.` : undefined}
      />
      <Pending load={usage} />
      {u && (
        <div class="cards">
          <section class="card" aria-label="Plan">
            <h2>Plan</h2>
            <p class="value">{u.plan[0].toUpperCase() + u.plan.slice(1)}</p>
            <p class="muted">Trial ends {day(u.trial_ends_at)}</p>
          </section>
          <QuotaCard title="Content briefs" quota={u.briefs} />
          <QuotaCard title="Content drafts" quota={u.drafts} />
          <QuotaCard title="Site audits" quota={u.audits} />
        </div>
      )}
    </>
  );
}
