// Citations (the citations operation): the mix of source categories, the top domains and the top
// URLs cited in the answers at the page's filters. The tables show ten rows; their CSV holds every
// row the operation lists (up to its limit of 200). A domain links to the answers citing it (the
// answers operation's domain filter), a URL's count to those citing the page (its url filter); a
// category, which the answers operation does not filter by, links to the answers at the page's
// filters, the answers its figures count.
import { read } from '../../api.ts';
import { useLoad } from '../../load.ts';
import { Panel, Pending } from '../../components/page.tsx';
import { BarLabel, DataTable } from '../../components/data-table.tsx';
import { CitationLink } from '../../components/answer-card.tsx';
import { CategoryTable, categoryLabel } from '../figure-parts.tsx';
import { type PartProps, useReport } from './part.ts';

const SHOWN = 10;

export function CitationsPanel(p: PartProps) {
  const figures = useLoad(() => read('citations', { ...p.params, limit: '200' }), [p.paramsKey]);
  useReport(p.report, 'citations', !figures.loading);
  const f = figures.data;
  const maxDomain = Math.max(0, ...(f?.top_domains ?? []).map((d) => d.results_citing));
  return (
    <Panel title="Citations" busy={figures.loading}>
      <Pending load={figures} />
      {f && (
        <>
          <p class="panel-figure">
            <a href={p.link()}>
              <span class="figure">{f.totals.results_with_citations}</span>
            </a>{' '}
            <span class="muted">
              answers cite {f.totals.domains} domains ({f.totals.citations} citations)
            </span>
          </p>
          <div class="grid-2">
            <div>
              <h3 class="sub-heading">By category</h3>
              <CategoryTable rows={f.source_type_breakdown} empty="No citations in this range." href={p.link()} />
            </div>
            <div>
              <h3 class="sub-heading">Top domains</h3>
              <DataTable
                caption="Top cited domains"
                csvName="cited-domains"
                rows={f.top_domains.slice(0, SHOWN)}
                allRows={async () => f.top_domains}
                rowKey={(r) => r.domain}
                empty="No citations in this range."
                columns={[
                  {
                    key: 'domain',
                    label: 'Domain',
                    render: (r) => (
                      <BarLabel value={r.results_citing} max={maxDomain}>
                        <a href={p.link({ domain: r.domain })}>{r.domain}</a>{' '}
                        <span class="muted">{categoryLabel(r.category)}</span>
                      </BarLabel>
                    ),
                  },
                  { key: 'category', label: 'Category', csvOnly: true },
                  {
                    key: 'results_citing',
                    label: 'Answers',
                    align: 'right',
                    render: (r) => (
                      <a
                        href={p.link({ domain: r.domain })}
                        data-count={r.results_citing}
                        aria-label={`Answers citing ${r.domain}: ${r.results_citing}`}
                      >
                        {r.results_citing}
                      </a>
                    ),
                  },
                  { key: 'usage_pct', label: '% of answers', align: 'right' },
                ]}
              />
            </div>
          </div>
          <h3 class="sub-heading">Top URLs</h3>
          <DataTable
            caption="Top cited URLs"
            csvName="cited-urls"
            rows={f.top_urls.slice(0, SHOWN)}
            allRows={async () => f.top_urls}
            rowKey={(r) => r.url}
            empty="No citations in this range."
            columns={[
              { key: 'url', label: 'URL', render: (r) => <CitationLink url={r.url} title={r.title || r.url} /> },
              { key: 'title', label: 'Title', csvOnly: true },
              {
                key: 'results_citing',
                label: 'Answers',
                align: 'right',
                render: (r) => (
                  <a
                    href={p.link({ url: r.url })}
                    data-count={r.results_citing}
                    aria-label={`Answers citing ${r.url}: ${r.results_citing}`}
                  >
                    {r.results_citing}
                  </a>
                ),
              },
            ]}
          />
        </>
      )}
    </Panel>
  );
}
