// The citation gap (citation-gap): domains cited in answers naming a competitor and never in those
// naming the brand. The summary and the first domains; a domain opens the answers citing it, and
// each competitor beside it the answers citing it that name that competitor.
import { read } from '../../api.ts';
import { useLoad } from '../../load.ts';
import { Panel, Pending } from '../../components/page.tsx';
import { BarLabel, DataTable } from '../../components/data-table.tsx';
import { CitationLink } from '../../components/answer-card.tsx';
import { competitorsCsv, type Gap, type GapDomain } from '../citation-figures.ts';
import { categoryLabel } from '../figure-parts.tsx';
import { type PartProps, useReport } from './part.ts';

const SHOWN = 5;

export function GapPanel(p: PartProps) {
  const gap = useLoad(() => read<Gap>('citation-gap', { ...p.params, limit: '200' }), [p.paramsKey]);
  useReport(p.report, 'gap', !gap.loading);
  const g = gap.data;
  const max = Math.max(0, ...(g?.domains ?? []).map((d) => d.competitor_answers));
  return (
    <Panel title="Citation gap" busy={gap.loading}>
      <Pending load={gap} />
      {g && (
        <>
          <p class="panel-figure">
            <a href={p.link()}>
              <span class="figure">{g.totals.domains}</span>
            </a>{' '}
            <span class="muted">
              domains cited by {g.totals.answers} answers naming a competitor, and never by an answer naming you
            </span>
          </p>
          <DataTable<GapDomain>
            caption="Citation gap: domains"
            csvName="citation-gap"
            rows={g.domains.slice(0, SHOWN)}
            allRows={async () => g.domains}
            rowKey={(d) => d.domain}
            empty="No gap in this range: every domain cited with a competitor is cited with you too."
            columns={[
              {
                key: 'domain',
                label: 'Domain',
                render: (d) => (
                  <BarLabel value={d.competitor_answers} max={max}>
                    <a href={p.link({ domain: d.domain })}>{d.domain}</a>{' '}
                    <span class="muted">{categoryLabel(d.category)}</span>
                  </BarLabel>
                ),
              },
              { key: 'category', label: 'Category', csvOnly: true },
              { key: 'competitor_answers', label: 'Answers', align: 'right' },
              {
                key: 'competitors',
                label: 'Competitors named',
                render: (d) =>
                  d.competitors.map((c, i) => (
                    <span key={c.competitor_id}>
                      {i > 0 && ', '}
                      <a href={p.link({ domain: d.domain, mentioned: c.competitor_id })}>{c.name}</a> ({c.answers})
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
        </>
      )}
    </Panel>
  );
}
