// Competitors: the brand and each tracked competitor on the same answers, as the API gives them:
// competitor-comparison (AI visibility score, mean score, mentions, citations, answers naming it,
// share of voice overall and per platform), visibility-confidence (mention rate with its 95%
// interval; it takes no topic, so with a topic filter the rate is not shown), sentiment (net
// sentiment per entity) and visibility-change (the brand's average position, and each entity's mention
// rate change against the previous period with its interval and verdict). Each row leads to the
// answers naming that entity at the same filters. Below: the mention rate per platform of every
// entity (competitor-comparison's platforms) and the brands the answers name that are not tracked
// (untracked-brands), each with `Track <name>` (add-competitor, which queues the re-analysis).
import { useState } from 'preact/hooks';
import { change, messageOf, read } from '../api.ts';
import { useApp } from '../context.ts';
import { answersHref } from '../answers-link.ts';
import { type Filters, filterParams, useFilters, withoutTopic } from '../filters.ts';
import { useLoad } from '../load.ts';
import { figureName } from '../figure-definitions.ts';
import { BarLabel, DataTable } from '../components/data-table.tsx';
import { FilterBar } from '../components/filter-bar.tsx';
import { PageHead, Panel, Pending, Problem } from '../components/page.tsx';
import type { PageProps } from '../page-props.ts';
import type { Result } from '../operation-types.ts';
import { AppLink, FigureCard, percent } from './figure-parts.tsx';
import { platformName } from '../../tenancy/tracked.ts';

type Comparison = Result<'competitor-comparison'>;
type Confidence = Result<'visibility-confidence'>;
type Sentiment = Result<'sentiment'>;
type Change = Result<'visibility-change'>;
type Estimate = Confidence['entities'][number]['mention_rate'];
type Moved = Change['metrics'][number];
/** An entity's figures, the brand's or a competitor's, without its id. */
type Figures = Omit<Comparison['competitors'][number], 'competitor_id'>;

interface Row extends Figures {
  /** `brand`, or the competitor's id: the explorer's `mentioned`. */
  mentioned: string;
  moved?: Moved;
  is_brand: boolean;
  mention_rate?: Estimate;
  net_sentiment: number | null;
}

/** The page's reads; the confidence without a topic, since it takes none. */
function loadAll(brandId: string, f: Filters) {
  const params = { brand_id: brandId, ...filterParams(f) };
  return Promise.all([
    read('competitor-comparison', params),
    f.topic_id ? Promise.resolve(undefined) : read('visibility-confidence', withoutTopic(params)),
    read('sentiment', params),
    read('visibility-change', params),
  ]);
}

function rowsOf(c: Comparison, conf: Confidence | undefined, s: Sentiment, ch: Change | undefined): Row[] {
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
      moved: ch?.metrics.find((m) => m.metric === 'mention_rate'),
    },
    ...c.competitors.map((x) => ({
      ...x,
      mentioned: x.competitor_id,
      is_brand: false,
      mention_rate: rate(x.competitor_id, false),
      net_sentiment: net(x.competitor_id, false),
      moved: ch?.competitors.find((m) => m.competitor_id === x.competitor_id),
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
  const rows = comparison && sentiment ? rowsOf(comparison, confidence, sentiment, change) : [];
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
            note="The brand's rank among the tracked names an answer mentions (untracked brands are not counted)"
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
              { key: 'ai_visibility_score', label: figureName('AI visibility score'), align: 'right' },
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
                label: 'Answers naming',
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
              {
                key: 'moved',
                label: 'Mention rate change',
                align: 'right',
                render: (r) => <MovedCell moved={r.moved} />,
                csv: (r) => r.moved?.change ?? null,
              },
              { key: 'total_mentions', label: 'Mentions', align: 'right' },
              { key: 'total_citations', label: 'Citations', align: 'right' },
              { key: 'net_sentiment', label: 'Sentiment', align: 'right' },
            ]}
          />
          <p class="hint">
            AI visibility score: 0-100. Answers: the answers naming it. Sentiment: net sentiment, -100 to 100. Mention
            rate with its 95% interval; its change in points against the previous{' '}
            {change ? `period (${change.previous.date_from} – ${change.previous.date_to})` : 'period'}, with the
            change's 95% interval and whether it is more than noise.
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
                    label={
                      `${r.brand_mentions} brand mentions on ${platformName(r.platform)} (${r.model_used}): ` +
                      'the answers'
                    }
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
                    label={
                      `${r.competitor_mentions} competitor mentions on ${platformName(r.platform)} ` +
                      `(${r.model_used}): the answers`
                    }
                  >
                    {r.competitor_mentions}
                  </AppLink>
                ),
              },
            ]}
          />
        </Panel>
      )}
      {comparison && <PlatformRates comparison={comparison} href={href} />}
      <UntrackedPanel brandId={brandId} filters={filters} href={href} />
    </>
  );
}

const signed = (n: number) => (n > 0 ? `+${n}` : n < 0 ? `−${-n}` : '0');
const VERDICTS = { up: 'up', down: 'down', within_noise: 'within noise', not_enough_data: 'not enough data' };

/** A mention rate's change in points, its 95% interval and the verdict (visibility-change). */
function MovedCell(p: { moved?: Moved }) {
  const m = p.moved;
  if (!m || m.change === null) return <span class="muted">{m ? VERDICTS[m.verdict] : '—'}</span>;
  return (
    <>
      {signed(m.change)} pts <span class={`badge verdict-${m.verdict}`}>{VERDICTS[m.verdict]}</span>
      {m.ci95 && <span class="ci">{`95%: ${signed(m.ci95[0])} to ${signed(m.ci95[1])}`}</span>}
    </>
  );
}

/** The mention rate of the brand and of each competitor per platform, over the same answers. */
function PlatformRates(p: { comparison: Comparison; href: (more: Record<string, string | undefined>) => string }) {
  const c = p.comparison;
  const entities = [
    { id: c.brand.id, name: c.brand.name, mentioned: 'brand' },
    ...c.competitors.map((x) => ({ id: x.competitor_id, name: x.name, mentioned: x.competitor_id })),
  ];
  type PlatformRow = Comparison['platforms'][number];
  return (
    <Panel title="Mention rate by platform">
      <DataTable<PlatformRow>
        caption="Mention rate by platform: the brand and each competitor"
        csvName="mention-rate-by-platform"
        rows={c.platforms}
        rowKey={(r) => r.platform}
        empty="No answers in this range."
        columns={[
          {
            key: 'platform',
            label: 'Platform',
            render: (r) => platformName(r.platform),
            csv: (r) => platformName(r.platform),
          },
          {
            key: 'answers',
            label: 'Answers',
            align: 'right',
            render: (r) => <AppLink href={p.href({ platform: r.platform })}>{r.answers}</AppLink>,
          },
          ...entities.map((e) => ({
            key: e.id,
            label: e.name,
            align: 'right' as const,
            render: (r: PlatformRow) => (
              <AppLink href={p.href({ platform: r.platform, mentioned: e.mentioned })}>
                {percent(r.mention_rates[e.id])}
              </AppLink>
            ),
            csv: (r: PlatformRow) => r.mention_rates[e.id] ?? null,
          })),
        ]}
      />
      <p class="hint">The share of each platform's answers naming each name, in %.</p>
    </Panel>
  );
}

/** Brands the answers name that are not tracked, each with its answers and `Track <name>`. */
function UntrackedPanel(p: {
  brandId: string;
  filters: Filters;
  href: (more: Record<string, string | undefined>) => string;
}) {
  const [version, setVersion] = useState(0);
  const list = useLoad(
    () => read('untracked-brands', { brand_id: p.brandId, ...filterParams(p.filters) }),
    [p.brandId, JSON.stringify(p.filters), version],
  );
  const [state, setState] = useState<{ busy?: string; done?: string; error?: string }>({});
  const track = async (name: string) => {
    setState({ busy: name });
    try {
      const made = await change('add-competitor', { brand_id: p.brandId, name });
      const reanalysing = made.reanalysis_queued
        ? ' Your answers are being analysed again to count it; its figures appear when that is done.'
        : '';
      setState({ done: `${name} is now a competitor.${reanalysing}` });
      setVersion((v) => v + 1);
    } catch (err) {
      setState({ error: `${name} could not be tracked: ${messageOf(err)}` });
    }
  };
  type Brand = Result<'untracked-brands'>['brands'][number];
  return (
    <Panel title="Brands the answers name that you don't track">
      <p class="hint">
        Names opening a list item, in bold, or on a shopping card, in at least 3 answers in range, that are not your
        brand or a competitor. Track one to see it on every figure.
      </p>
      <Pending load={list} />
      {state.done && (
        <p class="notice" role="status">
          {state.done}
        </p>
      )}
      {state.error && <Problem message={state.error} />}
      {list.data && (
        <DataTable<Brand>
          caption="Untracked brands named in the answers"
          csvName="untracked-brands"
          rows={list.data.brands}
          rowKey={(b) => b.name}
          empty="No untracked name appears in 3 answers or more in this range."
          columns={[
            { key: 'name', label: 'Name' },
            {
              key: 'answers',
              label: 'Answers',
              align: 'right',
              render: (b) => (
                <AppLink href={p.href({ untracked: b.name })} label={`${b.answers} answers naming ${b.name}`}>
                  {b.answers}
                </AppLink>
              ),
            },
            { key: 'first_seen', label: 'First seen' },
            {
              key: 'platforms',
              label: 'Platforms',
              render: (b) => b.platforms.map(platformName).join(', '),
              csv: (b) => b.platforms.map(platformName).join('; '),
            },
            {
              key: 'track',
              label: 'Track',
              hideLabel: true,
              noCsv: true,
              render: (b) => (
                <button type="button" onClick={() => track(b.name)} disabled={Boolean(state.busy)}>
                  {state.busy === b.name ? 'Tracking…' : `Track ${b.name}`}
                </button>
              ),
            },
          ]}
        />
      )}
    </Panel>
  );
}
