// Competitors: the brand and each tracked competitor on the same answers, as the API gives them:
// competitor-comparison (AI visibility score, mean score, mentions, citations, answers naming it,
// share of voice overall and per platform), visibility-confidence (mention rate with its 95%
// interval; it takes no topic, so with a topic filter the rate is not shown), sentiment (net
// sentiment per entity) and visibility-change (the brand's average position). Each row leads to
// the answers naming that entity at the same filters.
import { read } from '../api.ts';
import { useApp } from '../context.ts';
import { answersHref } from '../answers-link.ts';
import { type Filters, filterParams, useFilters } from '../filters.ts';
import { useLoad } from '../load.ts';
import { BarLabel, DataTable } from '../components/data-table.tsx';
import { FilterBar } from '../components/filter-bar.tsx';
import { PageHead, Panel, Pending } from '../components/page.tsx';
import type { PageProps } from '../routes.ts';
import { AppLink, FigureCard, percent } from './figure-parts.tsx';
import { platformName } from '../../tenancy/tracked.ts';

interface Figures {
  name: string;
  avg_visibility_score: number | null;
  ai_visibility_score: number | null;
  total_mentions: number;
  total_citations: number;
  appearance_count: number;
}

interface Comparison {
  brand: Figures & { id: string };
  competitors: (Figures & { competitor_id: string })[];
  share_of_voice: {
    overall_sov_pct: number;
    total_brand_mentions: number;
    total_competitor_mentions: number;
    by_platform: {
      model_used: string;
      platform: string;
      brand_mentions: number;
      competitor_mentions: number;
      sov_pct: number;
    }[];
  };
}

interface Estimate {
  value: number | null;
  ci95: number[] | null;
}

interface Confidence {
  entities: { entity_id: string; is_brand: boolean; mention_rate: Estimate }[];
}

interface Sentiment {
  entities: { entity_id: string; is_brand: boolean; net_sentiment: number | null; assessed: number }[];
}

interface Change {
  metrics: { metric: string; current: number | null }[];
}

interface Row extends Figures {
  /** `brand`, or the competitor's id: the explorer's `mentioned`. */
  mentioned: string;
  is_brand: boolean;
  mention_rate?: Estimate;
  net_sentiment: number | null;
}

/** The page's reads; the confidence without a topic, since it takes none. */
function loadAll(brandId: string, f: Filters) {
  const params = { brand_id: brandId, ...filterParams(f) };
  const withoutTopic = { ...params, topic_id: undefined };
  return Promise.all([
    read<Comparison>('competitor-comparison', params),
    f.topic_id ? Promise.resolve(undefined) : read<Confidence>('visibility-confidence', withoutTopic),
    read<Sentiment>('sentiment', params),
    read<Change>('visibility-change', params),
  ]);
}

function rowsOf(c: Comparison, conf: Confidence | undefined, s: Sentiment): Row[] {
  const rate = (id: string, brand: boolean) =>
    conf?.entities.find((e) => (brand ? e.is_brand : e.entity_id === id))?.mention_rate;
  const net = (id: string, brand: boolean) =>
    s.entities.find((e) => (brand ? e.is_brand : e.entity_id === id))?.net_sentiment ?? null;
  return [
    {
      ...c.brand,
      mentioned: 'brand',
      is_brand: true,
      mention_rate: rate(c.brand.id, true),
      net_sentiment: net(c.brand.id, true),
    },
    ...c.competitors.map((x) => ({
      ...x,
      mentioned: x.competitor_id,
      is_brand: false,
      mention_rate: rate(x.competitor_id, false),
      net_sentiment: net(x.competitor_id, false),
    })),
  ];
}

export function CompetitorsPage(p: PageProps) {
  const brandId = p.params.brandId;
  const { brand } = useApp();
  const [filters] = useFilters();
  const key = JSON.stringify(filters);
  const data = useLoad(() => loadAll(brandId, filters), [brandId, key]);
  const href = (more: Record<string, string | undefined>) =>
    answersHref(brandId, { ...filterParams(filters), ...more });
  const [comparison, confidence, sentiment, change] = data.data ?? [];
  const rows = comparison && sentiment ? rowsOf(comparison, confidence, sentiment) : [];
  const position = change?.metrics.find((m) => m.metric === 'average_position')?.current;
  const sov = comparison?.share_of_voice;
  return (
    <>
      <PageHead
        title="Competitors"
        intro={`${brand?.name ?? 'The brand'} against each tracked competitor, on the same answers.`}
      />
      <FilterBar brandId={brandId} />
      <Pending load={data} />
      {comparison && sov && (
        <div class="cards">
          <FigureCard
            title="Share of voice"
            value={sov.overall_sov_pct}
            unit="%"
            note={`${sov.total_brand_mentions} brand mentions, ${sov.total_competitor_mentions} competitor mentions`}
            href={href({ mentioned: 'brand' })}
            linkText="Answers naming the brand"
          />
          <FigureCard
            title="Average position"
            value={position}
            note="Where the brand is first named, among the names in an answer"
            href={href({ mentioned: 'brand' })}
            linkText="Answers naming the brand"
          />
        </div>
      )}
      {comparison && (
        <Panel title="Leaderboard">
          <DataTable
            caption="Leaderboard: the brand and its competitors"
            class="leaderboard"
            csvName="competitors"
            rows={rows}
            rowKey={(r) => r.mentioned}
            columns={[
              {
                key: 'name',
                label: 'Name',
                render: (r) => (
                  <BarLabel value={r.ai_visibility_score ?? 0} max={100}>
                    <AppLink href={href({ mentioned: r.mentioned })} label={`${r.name}: answers naming it`}>
                      {r.name}
                    </AppLink>
                    {r.is_brand && (
                      <>
                        {' '}
                        <span class="badge accent">your brand</span>
                      </>
                    )}
                  </BarLabel>
                ),
              },
              { key: 'ai_visibility_score', label: 'Visibility', align: 'right' },
              {
                key: 'mention_rate',
                label: 'Mention rate',
                align: 'right',
                render: (r) => (
                  <>
                    {percent(r.mention_rate?.value)}
                    {r.mention_rate?.ci95 && (
                      <span class="ci">{`95%: ${r.mention_rate.ci95[0]}–${r.mention_rate.ci95[1]}`}</span>
                    )}
                  </>
                ),
                csv: (r) => r.mention_rate?.value ?? null,
              },
              {
                key: 'appearance_count',
                label: 'Answers',
                align: 'right',
                render: (r) => (
                  <AppLink
                    href={href({ mentioned: r.mentioned })}
                    label={`${r.appearance_count} answers naming ${r.name}`}
                  >
                    {r.appearance_count}
                  </AppLink>
                ),
              },
              { key: 'total_mentions', label: 'Mentions', align: 'right' },
              { key: 'total_citations', label: 'Citations', align: 'right' },
              { key: 'avg_visibility_score', label: 'Mean score', align: 'right' },
              { key: 'net_sentiment', label: 'Sentiment', align: 'right' },
            ]}
          />
          <p class="hint">
            Visibility: the AI visibility score (0-100). Answers: the answers naming it. Mean score: its mean per-answer
            score (0-100). Sentiment: net sentiment, -100 to 100. Mention rate with its 95% interval.
            {filters.topic_id && ' The mention rate is not given for one topic; clear the topic to see it.'}
          </p>
        </Panel>
      )}
      {sov && (
        <Panel title="Share of voice by platform">
          <DataTable
            caption="Share of voice by platform and model"
            csvName="share-of-voice"
            rows={sov.by_platform}
            rowKey={(r) => `${r.platform}/${r.model_used}`}
            empty="No tracked entity is named in these answers."
            columns={[
              {
                key: 'platform',
                label: 'Platform',
                render: (r) => platformName(r.platform),
                csv: (r) => platformName(r.platform),
              },
              { key: 'model_used', label: 'Model' },
              {
                key: 'sov_pct',
                label: 'Share of voice',
                align: 'right',
                render: (r) => percent(r.sov_pct),
              },
              {
                key: 'brand_mentions',
                label: 'Brand mentions',
                align: 'right',
                render: (r) => (
                  <AppLink
                    href={href({ model: r.model_used, mentioned: 'brand' })}
                    label={`${r.brand_mentions} brand mentions on ${platformName(r.platform)} (${r.model_used}): the answers`}
                  >
                    {r.brand_mentions}
                  </AppLink>
                ),
              },
              {
                key: 'competitor_mentions',
                label: 'Competitor mentions',
                align: 'right',
                render: (r) => (
                  <AppLink
                    href={href({ model: r.model_used })}
                    label={`${r.competitor_mentions} competitor mentions on ${platformName(r.platform)} (${r.model_used}): the answers`}
                  >
                    {r.competitor_mentions}
                  </AppLink>
                ),
              },
            ]}
          />
        </Panel>
      )}
    </>
  );
}
