// AI traffic: visits AI platforms sent to the brand's site in the chosen dates, as the ai-traffic
// operation gives them (total, by platform, top landing pages, by country). The operation takes
// only dates, so the filter bar shows only dates. With no visit: how to install /t.js.
import { read } from '../api.ts';
import type { Result } from '../operation-types.ts';
import { useFilters } from '../filters.ts';
import { useLoad } from '../load.ts';
import { BarLabel, DataTable } from '../components/data-table.tsx';
import { FilterBar } from '../components/filter-bar.tsx';
import { PageHead, Panel, Pending } from '../components/page.tsx';
import type { PageProps } from '../page-props.ts';
import { TrackingSetup } from './site-setup.tsx';
import './activity.css';
import { platformName } from '../../tenancy/tracked.ts';

type Traffic = Result<'ai-traffic'>;

const max = (rows: { visits: number }[]) => rows.reduce((m, r) => Math.max(m, r.visits), 0);

export function AiTrafficPage(p: PageProps) {
  const brandId = p.params.brandId;
  const [filters] = useFilters();
  const range = { date_from: filters.date_from, date_to: filters.date_to };
  const traffic = useLoad(
    () => read('ai-traffic', { brand_id: brandId, ...range }),
    [brandId, range.date_from, range.date_to],
  );
  const t = traffic.data;
  const csv = (name: string) => `ai-traffic-${name}`;
  return (
    <>
      <PageHead
        title="AI traffic"
        intro="Visits to your site from links in AI answers, recorded by the tracking script. Dates are UTC days."
      />
      <FilterBar brandId={brandId} only={['dates']} />
      <Pending load={traffic} />
      {t && (
        <div class="cards">
          <section class="card" aria-label="AI visits">
            <h2>AI visits</h2>
            <p class="value">{t.total_visits}</p>
            <p class="muted period">
              {range.date_from} to {range.date_to}
            </p>
          </section>
        </div>
      )}
      {t && t.total_visits === 0 && (
        <Panel title="Start recording AI visits">
          <TrackingSetup brandId={brandId} />
        </Panel>
      )}
      {t && t.total_visits > 0 && (
        <>
          <Panel title="Visits by AI platform">
            <DataTable
              caption="Visits by AI platform, most first"
              csvName={csv('platforms')}
              columns={[
                {
                  key: 'platform',
                  label: 'Platform',
                  render: (r: Traffic['platform_breakdown'][number]) => (
                    <BarLabel value={r.visits} max={max(t.platform_breakdown)}>
                      {platformName(r.platform)}
                    </BarLabel>
                  ),
                },
                { key: 'visits', label: 'Visits', align: 'right' },
              ]}
              rows={t.platform_breakdown}
            />
          </Panel>
          <div class="panel-grid">
            <Panel title="Top landing pages">
              <DataTable
                caption="The 10 most visited pages (paths on your site)"
                csvName={csv('pages')}
                columns={[
                  {
                    key: 'url',
                    label: 'Page',
                    render: (r: Traffic['top_pages'][number]) => (
                      <BarLabel value={r.visits} max={max(t.top_pages)}>
                        <span class="mono">{r.url}</span>
                      </BarLabel>
                    ),
                  },
                  { key: 'visits', label: 'Visits', align: 'right' },
                ]}
                rows={t.top_pages}
              />
            </Panel>
            <Panel title="Countries">
              <DataTable
                caption="Visits by country (two-letter code; XX when unknown)"
                csvName={csv('countries')}
                columns={[
                  {
                    key: 'country',
                    label: 'Country',
                    render: (r: Traffic['country_breakdown'][number]) => (
                      <BarLabel value={r.visits} max={max(t.country_breakdown)}>
                        {r.country}
                      </BarLabel>
                    ),
                  },
                  { key: 'visits', label: 'Visits', align: 'right' },
                ]}
                rows={t.country_breakdown}
              />
            </Panel>
          </div>
        </>
      )}
    </>
  );
}
