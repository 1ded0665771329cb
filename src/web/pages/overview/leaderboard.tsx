// The competitor leaderboard (competitor-comparison): the brand and each competitor on the same
// answers, ranked by AI visibility score, with share of voice above. A row opens the answers
// naming that entity (mentioned=brand or the competitor's id).
import { read } from '../../api.ts';
import type { Result } from '../../operation-types.ts';
import { useLoad } from '../../load.ts';
import { figureName } from '../../figure-definitions.ts';
import { Panel, Pending } from '../../components/page.tsx';
import { BarLabel, DataTable } from '../../components/data-table.tsx';
import { type PartProps, useReport } from './part.ts';

/** An entity's name and figures, the brand's or a competitor's. */
type Figures = Omit<Result<'competitor-comparison'>['competitors'][number], 'competitor_id'>;

interface Row extends Figures {
  mentioned: string;
  isBrand: boolean;
}

export function Leaderboard(p: PartProps) {
  const comparison = useLoad(() => read('competitor-comparison', p.params), [p.paramsKey]);
  useReport(p.report, 'leaderboard', !comparison.loading);
  const c = comparison.data;
  const rows: Row[] = c
    ? [
        { ...c.brand, mentioned: 'brand', isBrand: true },
        ...c.competitors.map((x) => ({ ...x, mentioned: x.competitor_id, isBrand: false })),
      ].sort(
        (a, b) =>
          (b.ai_visibility_score ?? -1) - (a.ai_visibility_score ?? -1) ||
          b.appearance_count - a.appearance_count ||
          a.name.localeCompare(b.name),
      )
    : [];
  const max = Math.max(0, ...rows.map((r) => r.ai_visibility_score ?? 0));
  return (
    <Panel title="Competitor leaderboard" busy={comparison.loading}>
      <Pending load={comparison} />
      {c && (
        <>
          <p class="panel-figure">
            <a href={p.link({ mentioned: 'brand' })}>
              <span class="figure">{c.share_of_voice.overall_sov_pct}%</span>
            </a>{' '}
            <span class="muted">
              share of voice: {c.share_of_voice.total_brand_mentions} of{' '}
              {c.share_of_voice.total_brand_mentions + c.share_of_voice.total_competitor_mentions} tracked mentions
            </span>
          </p>
          <DataTable<Row>
            caption="Competitor leaderboard"
            csvName="competitor-leaderboard"
            rows={rows}
            rowKey={(r) => r.mentioned}
            empty="No answers in this range."
            columns={[
              {
                key: 'name',
                label: 'Name',
                render: (r) => (
                  <BarLabel value={r.ai_visibility_score ?? 0} max={max}>
                    <a href={p.link({ mentioned: r.mentioned })} class={r.isBrand ? 'is-brand' : undefined}>
                      {r.name}
                    </a>
                    {r.isBrand && <span class="badge accent">you</span>}
                  </BarLabel>
                ),
              },
              { key: 'ai_visibility_score', label: figureName('AI visibility score'), align: 'right' },
              {
                key: 'appearance_count',
                label: 'Answers naming',
                align: 'right',
                render: (r) => (
                  <a
                    href={p.link({ mentioned: r.mentioned })}
                    data-count={r.appearance_count}
                    aria-label={`Answers naming ${r.name}: ${r.appearance_count}`}
                  >
                    {r.appearance_count}
                  </a>
                ),
              },
              { key: 'total_mentions', label: 'Mentions', align: 'right' },
              { key: 'total_citations', label: 'Citations', align: 'right' },
            ]}
          />
        </>
      )}
    </Panel>
  );
}
