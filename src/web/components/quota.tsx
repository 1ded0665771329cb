// A monthly allowance (briefs, drafts, audits) as the usage operation gives it: in words beside a
// form, or as a card with the count used "of" the plan's limit (or "unlimited") and a meter.
import { limitText } from '../format.ts';
import type { Result } from '../operation-types.ts';

export type Quota = Result<'usage'>['briefs'];

export function quotaWords(q: Quota, noun: string): string {
  if (q.limit < 0) return `${q.used} ${noun} used this month (unlimited).`;
  return `${q.used} of ${limitText(q.limit)} ${noun} used this month; ${q.remaining} left.`;
}

/** `label`: the region's name when it is shorter than the heading; `meter`: false leaves the bar out. */
export function QuotaCard(p: { title: string; quota: Quota; label?: string; meter?: boolean }) {
  const { used, limit } = p.quota;
  return (
    <section class="card" aria-label={p.label ?? p.title}>
      <h2>{p.title}</h2>
      <p class="value">
        {used}
        <span class="of"> of {limitText(limit)}</span>
      </p>
      {p.meter !== false && limit > 0 && (
        <div class="meter" role="img" aria-label={`${used} of ${limit} used`}>
          <span style={{ width: `${Math.min(100, (100 * used) / limit)}%` }} />
        </div>
      )}
    </section>
  );
}
