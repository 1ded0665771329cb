// Citations: what the engines cite for the brand's prompts (citations: totals, sources by
// category, top domains and URLs) and the citation gap (citation-gap: the sources of the answers
// naming a competitor and not the brand), optionally for one competitor (competitor_id, kept in
// the address). A domain leads to the answers citing it (the explorer's domain filter), a page's
// count to those citing the page (its url filter); a gap count to exactly the gap answers it
// counts (gap=true), a competitor's to those naming that competitor.
import { read } from '../api.ts';
import { answersHref } from '../answers-link.ts';
import { filterParams, useFilters } from '../filters.ts';
import { useLoad } from '../load.ts';
import { navigate, useLocation } from '../router.ts';
import { BarLabel, DataTable } from '../components/data-table.tsx';
import { FilterBar } from '../components/filter-bar.tsx';
import { PageHead, Panel, Pending } from '../components/page.tsx';
import type { PageProps } from '../page-props.ts';
import { CitationLink } from '../components/answer-card.tsx';
import { competitorsCsv, gapEmptyReason } from './citation-figures.ts';
import { About } from '../components/about.tsx';
import { AppLink, CategoryTable, categoryLabel, percent } from './figure-parts.tsx';

/** Rows shown; the CSV asks for the API's most (200). */
const SHOWN = '50';
const ALL = '200';

/** `base`: the reads' parameters (brand and filters); `filters`: the filters alone, for the explorer's links. */
function GapPanel(p: {
  brandId: string;
  base: Record<string, string | undefined>;
  filters: Record<string, string | undefined>;
}) {
  const { path, query } = useLocation();
  const competitorId = query.get('competitor_id') ?? undefined;
  const competitors = useLoad(() => read('competitors', { brand_id: p.brandId }), [p.brandId]);
  const params = { ...p.base, competitor_id: competitorId };
  const gap = useLoad(() => read('citation-gap', { ...params, limit: SHOWN }), [JSON.stringify(params)]);
  const href = (more: Record<string, string | undefined>) => answersHref(p.brandId, { ...p.filters, ...more });
  const pick = (id: string) => {
    const next = new URLSearchParams(query);
    if (id) next.set('competitor_id', id);
    else next.delete('competitor_id');
    navigate(`${path}?${next}`);
  };
  const rows = gap.data?.domains ?? [];
  const max = rows[0]?.gap_answers ?? 0;
  return (
    <Panel title="Citation gap">
      <p class="hint">
        The gap answers name a competitor and not your brand. The sources they cite, most first, are the places to be
        written about; the gap share says how much of a source's citing answers leave you out. Your own domains are left
        out.
      </p>
      <div class="panel-tools">
        <div class="field">
          <label for="gap-competitor">Competitor</label>
          <select id="gap-competitor" value={competitorId ?? ''} onChange={(e) => pick(e.currentTarget.value)}>
            <option value="">All competitors</option>
            {competitors.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Pending load={gap} />
      {gap.data && (
        <>
          <p class="totals">
            <span>
              <strong>{gap.data.totals.answers}</strong> answers
            </span>
            <span>
              <AppLink
                href={href({ gap: 'true', mentioned: competitorId })}
                label={`${gap.data.totals.gap_answers} gap answers`}
              >
                <strong data-count={gap.data.totals.gap_answers}>{gap.data.totals.gap_answers}</strong>
              </AppLink>{' '}
              gap answers
            </span>
            <span>
              <strong>{gap.data.totals.domains}</strong> domains they cite
            </span>
          </p>
          <DataTable
            caption="Citation gap: domains the gap answers cite"
            class="domain-cell"
            csvName="citation-gap"
            allRows={async () => (await read('citation-gap', { ...params, limit: ALL })).domains}
            rows={rows}
            rowKey={(d) => d.domain}
            empty={gapEmptyReason(gap.data.totals)}
            columns={[
              {
                key: 'domain',
                label: 'Domain',
                render: (d) => (
                  <BarLabel value={d.gap_answers} max={max}>
                    <AppLink
                      href={href({ domain: d.domain, mentioned: competitorId })}
                      label={`${d.domain}: answers citing it${competitorId ? ' that name the competitor' : ''}`}
                    >
                      {d.domain}
                    </AppLink>
                  </BarLabel>
                ),
              },
              { key: 'category', label: 'Category', render: (d) => categoryLabel(d.category) },
              {
                key: 'gap_answers',
                label: 'Gap answers',
                align: 'right',
                render: (d) => (
                  <AppLink
                    href={href({ gap: 'true', domain: d.domain, mentioned: competitorId })}
                    label={`${d.domain}: ${d.gap_answers} gap answers citing it`}
                  >
                    {d.gap_answers}
                  </AppLink>
                ),
              },
              {
                key: 'brand_answers',
                label: 'Answers naming you',
                align: 'right',
                // Whichever competitor is picked: the answers naming the brand citing the domain.
                render: (d) => (
                  <AppLink
                    href={href({ domain: d.domain, mentioned: 'brand' })}
                    label={`${d.domain}: ${d.brand_answers} answers naming you citing it`}
                  >
                    {d.brand_answers}
                  </AppLink>
                ),
              },
              { key: 'gap_share', label: 'Gap share %', align: 'right' },
              {
                key: 'competitors',
                label: 'Competitors named',
                render: (d) => (
                  <ul class="chips">
                    {d.competitors.map((c) => (
                      <li key={c.competitor_id}>
                        <AppLink
                          href={href({ gap: 'true', domain: d.domain, mentioned: c.competitor_id })}
                          label={`${c.name}: ${c.answers} gap answers citing ${d.domain}`}
                        >
                          {c.name} ({c.answers})
                        </AppLink>
                      </li>
                    ))}
                  </ul>
                ),
                csv: competitorsCsv,
              },
              {
                key: 'top_urls',
                label: 'Top pages',
                render: (d) => (
                  <ul class="url-list">
                    {d.top_urls.map((u) => (
                      <li key={u.url}>
                        <CitationLink url={u.url} title={u.title} mono={false} /> (
                        <AppLink
                          href={href({ gap: 'true', url: u.url, mentioned: competitorId })}
                          label={`${u.gap_answers} gap answers citing ${u.url}`}
                        >
                          {u.gap_answers}
                        </AppLink>
                        )
                      </li>
                    ))}
                  </ul>
                ),
                csv: (d) => d.top_urls.map((u) => `${u.url} (${u.gap_answers})`).join('; '),
              },
            ]}
          />
          <About figure="Citation gap" />
        </>
      )}
    </Panel>
  );
}

export function CitationsPage(p: PageProps) {
  const brandId = p.params.brandId;
  const [filters] = useFilters();
  const base = { brand_id: brandId, ...filterParams(filters) };
  const key = JSON.stringify(base);
  const data = useLoad(() => read('citations', { ...base, limit: SHOWN }), [key]);
  const all = () => read('citations', { ...base, limit: ALL });
  const href = (more: Record<string, string | undefined>) =>
    answersHref(brandId, { ...filterParams(filters), ...more });
  const c = data.data;
  const maxDomain = c?.top_domains[0]?.results_citing ?? 0;
  return (
    <>
      <PageHead
        title="Citations"
        intro="The sources AI answers cite for your prompts, and those they cite only for your competitors."
      />
      <FilterBar brandId={brandId} />
      <Pending load={data} />
      {c && (
        <p class="totals">
          <span>
            <strong>{c.totals.citations}</strong> citations
          </span>
          <span>
            <strong>{c.totals.domains}</strong> domains
          </span>
          <span>
            <strong>{c.totals.urls}</strong> pages
          </span>
          <span>
            <strong>{c.totals.results_with_citations}</strong> answers citing a source
          </span>
          <span>
            <strong>{c.totals.avg_citations_per_result ?? '—'}</strong> citations per answer
          </span>
        </p>
      )}
      {c && (
        <Panel title="Sources by category">
          <CategoryTable rows={c.source_type_breakdown} empty="No citations at these filters." />
        </Panel>
      )}
      {c && (
        <Panel title="Top domains">
          <DataTable
            caption="Top cited domains"
            class="domain-cell"
            csvName="citation-domains"
            allRows={async () => (await all()).top_domains}
            rows={c.top_domains}
            rowKey={(r) => r.domain}
            empty="No citations at these filters."
            columns={[
              {
                key: 'domain',
                label: 'Domain',
                render: (r) => (
                  <BarLabel value={r.results_citing} max={maxDomain}>
                    <AppLink href={href({ domain: r.domain })} label={`${r.domain}: answers citing it`}>
                      {r.domain}
                    </AppLink>
                  </BarLabel>
                ),
              },
              { key: 'category', label: 'Category', render: (r) => categoryLabel(r.category), csv: (r) => r.category },
              {
                key: 'results_citing',
                label: 'Answers citing',
                align: 'right',
                render: (r) => (
                  <AppLink href={href({ domain: r.domain })} label={`${r.results_citing} answers citing ${r.domain}`}>
                    {r.results_citing}
                  </AppLink>
                ),
              },
              { key: 'usage_pct', label: 'Share of answers', align: 'right', render: (r) => percent(r.usage_pct) },
              { key: 'total_citations', label: 'Citations', align: 'right' },
              { key: 'models', label: 'Models', render: (r) => r.models.join(', '), csv: (r) => r.models.join('; ') },
            ]}
          />
        </Panel>
      )}
      {c && (
        <Panel title="Top pages">
          <DataTable
            caption="Top cited pages"
            csvName="citation-urls"
            allRows={async () => (await all()).top_urls}
            rows={c.top_urls}
            rowKey={(r) => r.url}
            empty="No citations at these filters."
            columns={[
              {
                key: 'url',
                label: 'Page',
                render: (r) => (
                  <span class="break">
                    <CitationLink url={r.url} mono={false} />
                  </span>
                ),
              },
              { key: 'title', label: 'Title', render: (r) => r.title || '—' },
              {
                key: 'domain',
                label: 'Domain',
                render: (r) => (
                  <span class="nowrap">
                    <AppLink href={href({ domain: r.domain })} label={`${r.domain}: answers citing it`}>
                      {r.domain}
                    </AppLink>
                  </span>
                ),
              },
              {
                key: 'results_citing',
                label: 'Answers citing',
                align: 'right',
                render: (r) => (
                  <AppLink href={href({ url: r.url })} label={`${r.results_citing} answers citing ${r.url}`}>
                    {r.results_citing}
                  </AppLink>
                ),
              },
              { key: 'total_citations', label: 'Citations', align: 'right' },
              { key: 'usage_pct', label: 'Share of answers', align: 'right', render: (r) => percent(r.usage_pct) },
            ]}
          />
          <p class="hint">
            A page's count leads to the answers citing that page; its domain to the answers citing the domain.
          </p>
        </Panel>
      )}
      <GapPanel brandId={brandId} base={base} filters={filterParams(filters)} />
    </>
  );
}
