// The citation gap (citation-gap): the sources of the gap answers, those naming a competitor and not
// the brand. The summary (gap answers of all answers, linked to them) and the first domains; a
// domain opens the gap answers citing it, each competitor beside it those that name that competitor.
// An empty table says why: no answers in range is never "no gap".
import { read } from '../../api.ts';
import { useLoad } from '../../load.ts';
import { Panel, Pending } from '../../components/page.tsx';
import { BarLabel, DataTable } from '../../components/data-table.tsx';
import { CitationLink } from '../../components/answer-card.tsx';
import { About } from '../../components/about.tsx';
import { competitorsCsv, type GapDomain, gapEmptyReason } from '../citation-figures.ts';
import { categoryLabel } from '../figure-parts.tsx';
import { type PartProps, useReport } from './part.ts';

const SHOWN = 5;

export function GapPanel(p: PartProps) {
  const gap = useLoad(() => read('citation-gap', { ...p.params, limit: '200' }), [p.paramsKey]);
  useReport(p.report, 'gap', !gap.loading);
  const g = gap.data;
  const max = Math.max(0, ...(g?.domains ?? []).map((d) => d.gap_answers));
  return (
    <Panel title="Citation gap" busy={gap.loading}>
      <Pending load={gap} />
      {g && (
        <>
          <p class="panel-figure">
            <a href={p.link({ gap: 'true' })} data-count={g.totals.gap_answers}>
              <span class="figure">{g.totals.gap_answers}</span>
            </a>{' '}
            <span class="muted">
              of {g.totals.answers} answers name a competitor and not you; they cite {g.totals.domains} domains
            </span>
          </p>
          <DataTable<GapDomain>
            caption="Citation gap: domains"
            csvName="citation-gap"
            rows={g.domains.slice(0, SHOWN)}
            allRows={async () => g.domains}
            rowKey={(d) => d.domain}
            empty={gapEmptyReason(g.totals)}
            columns={[
              {
                key: 'domain',
                label: 'Domain',
                render: (d) => (
                  <BarLabel value={d.gap_answers} max={max}>
                    <a href={p.link({ domain: d.domain })}>{d.domain}</a>{' '}
                    <span class="muted">{categoryLabel(d.category)}</span>
                  </BarLabel>
                ),
              },
              { key: 'category', label: 'Category', csvOnly: true },
              {
                key: 'gap_answers',
                label: 'Gap answers',
                align: 'right',
                render: (d) => (
                  <a href={p.link({ gap: 'true', domain: d.domain })} data-count={d.gap_answers}>
                    {d.gap_answers}
                  </a>
                ),
              },
              { key: 'gap_share', label: 'Gap share %', align: 'right' },
              {
                key: 'competitors',
                label: 'Competitors named',
                render: (d) =>
                  d.competitors.map((c, i) => (
                    <span key={c.competitor_id}>
                      {i > 0 && ', '}
                      <a href={p.link({ gap: 'true', domain: d.domain, mentioned: c.competitor_id })}>{c.name}</a> (
                      {c.answers})
                    </span>
                  )),
                csv: competitorsCsv,
              },
              {
                key: 'top_urls',
                label: 'Top page',
                render: (d) =>
                  d.top_urls[0] ? <CitationLink url={d.top_urls[0].url} title={d.top_urls[0].title} /> : '—',
                csv: (d) => d.top_urls.map((u) => u.url).join(' '),
              },
            ]}
          />
          <About figure="Citation gap" />
        </>
      )}
    </Panel>
  );
}
