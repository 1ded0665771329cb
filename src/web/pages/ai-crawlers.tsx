// AI crawlers: which AI bots and agents fetched the brand's site in the chosen dates, from its
// server logs, as the ai-crawlers operation gives them (by bot with verified and spoofed hits, by
// type, top pages, HTTP status classes). The operation takes only dates. With no hit: how to send logs.
import { read } from '../api.ts';
import type { Result } from '../operation-types.ts';
import { dateTime } from '../format.ts';
import { useFilters } from '../filters.ts';
import { useLoad } from '../load.ts';
import { BarLabel, DataTable } from '../components/data-table.tsx';
import { FilterBar } from '../components/filter-bar.tsx';
import { PageHead, Panel, Pending } from '../components/page.tsx';
import type { PageProps } from '../page-props.ts';
import { CrawlerLogSetup } from './site-setup.tsx';
import './activity.css';

type Crawlers = Result<'ai-crawlers'>;
type Bot = Crawlers['by_bot'][number];
type BotType = Bot['bot_type'];

const TYPE_WORDS: Record<BotType, string> = {
  ai_assistant: 'Assistant (fetching for a user’s question)',
  ai_search: 'Search (indexing for AI search)',
  ai_training: 'Training (collecting training data)',
  ai_agent: 'Agent (acting for a user)',
};

const max = (rows: { hits: number }[]) => rows.reduce((m, r) => Math.max(m, r.hits), 0);

export function AiCrawlersPage(p: PageProps) {
  const brandId = p.params.brandId;
  const [filters] = useFilters();
  const range = { date_from: filters.date_from, date_to: filters.date_to };
  const crawlers = useLoad(
    () => read('ai-crawlers', { brand_id: brandId, ...range }),
    [brandId, range.date_from, range.date_to],
  );
  const c = crawlers.data;
  const csv = (name: string) => `ai-crawlers-${name}`;
  return (
    <>
      <PageHead
        title="AI crawlers"
        intro="AI crawlers and agents that fetched your site, from its server logs. Dates are UTC days."
      />
      <FilterBar brandId={brandId} only={['dates']} />
      <Pending load={crawlers} />
      {c && (
        <div class="cards">
          <section class="card" aria-label="AI crawler hits">
            <h2>AI crawler hits</h2>
            <p class="value">{c.total_hits}</p>
            <p class="muted period">
              {range.date_from} to {range.date_to}
            </p>
          </section>
        </div>
      )}
      {c && c.total_hits === 0 && c.by_bot.length === 0 && (
        <Panel title="Start sending server logs">
          <CrawlerLogSetup brandId={brandId} />
        </Panel>
      )}
      {c && (c.total_hits > 0 || c.by_bot.length > 0) && (
        <>
          <Panel title="By bot">
            <DataTable
              caption={
                "Hits by bot, most first. Verified: from the provider's published addresses; spoofed: claiming " +
                'the bot from elsewhere (counted only there).'
              }
              csvName={csv('bots')}
              columns={[
                { key: 'bot_name', label: 'Bot' },
                { key: 'provider', label: 'Provider' },
                {
                  key: 'bot_type',
                  label: 'Type',
                  render: (b: Bot) => TYPE_WORDS[b.bot_type] ?? b.bot_type,
                  csv: (b: Bot) => b.bot_type,
                },
                { key: 'hits', label: 'Hits', align: 'right' },
                { key: 'verified_hits', label: 'Verified', align: 'right' },
                { key: 'spoofed_hits', label: 'Spoofed', align: 'right' },
                {
                  key: 'last_visit',
                  label: 'Last visit',
                  render: (b: Bot) => dateTime(b.last_visit),
                  csv: (b: Bot) => b.last_visit,
                },
              ]}
              rows={c.by_bot}
            />
          </Panel>
          <div class="panel-grid">
            <Panel title="By type">
              <DataTable
                caption="Hits by crawler type"
                csvName={csv('types')}
                columns={[
                  {
                    key: 'bot_type',
                    label: 'Type',
                    render: (r: Crawlers['by_type'][number]) => (
                      <BarLabel value={r.hits} max={max(c.by_type)}>
                        {TYPE_WORDS[r.bot_type] ?? r.bot_type}
                      </BarLabel>
                    ),
                    csv: (r: Crawlers['by_type'][number]) => r.bot_type,
                  },
                  { key: 'hits', label: 'Hits', align: 'right' },
                ]}
                rows={c.by_type}
              />
            </Panel>
            <Panel title="HTTP status">
              <DataTable
                caption="Hits by HTTP status class"
                csvName={csv('status')}
                columns={[
                  {
                    key: 'status_class',
                    label: 'Status',
                    render: (r: Crawlers['status_breakdown'][number]) => (
                      <BarLabel value={r.hits} max={max(c.status_breakdown)}>
                        {r.status_class}
                      </BarLabel>
                    ),
                  },
                  { key: 'hits', label: 'Hits', align: 'right' },
                ]}
                rows={c.status_breakdown}
              />
            </Panel>
          </div>
          <Panel title="Most fetched pages">
            <DataTable
              caption="The 20 most fetched pages (paths on your site) and how many different bots fetched each"
              csvName={csv('pages')}
              columns={[
                {
                  key: 'path',
                  label: 'Page',
                  render: (r: Crawlers['top_pages'][number]) => (
                    <BarLabel value={r.hits} max={max(c.top_pages)}>
                      <span class="mono">{r.path}</span>
                    </BarLabel>
                  ),
                },
                { key: 'hits', label: 'Hits', align: 'right' },
                { key: 'bots', label: 'Bots', align: 'right' },
              ]}
              rows={c.top_pages}
            />
          </Panel>
        </>
      )}
    </>
  );
}
