// Shopping: the product cards of shopping-mode answers as the shopping-cards operation gives them
// (newest first, paged by its cursor; filtered by its own role, platform and region, kept in the
// address), and one product's visibility (?product=TITLE) from product-visibility. Every product
// and figure leads to the shopping answers behind it (answers explorer, mode=shopping, with the
// filters that produced it). Titles, brands and merchants are text; a merchant URL is a link only
// when it is http(s); product images are not loaded from other hosts.
import { useEffect, useState } from 'preact/hooks';
import { read } from '../api.ts';
import type { Result } from '../operation-types.ts';
import { dateTime, day, figure } from '../format.ts';
import { useLoad } from '../load.ts';
import { followLink } from '../router.ts';
import { answersHref } from '../answers-link.ts';
import { BarLabel, DataTable } from '../components/data-table.tsx';
import { LineChart } from '../components/chart.tsx';
import { OpenLink } from '../components/open-link.tsx';
import { QuerySelect } from '../components/query-select.tsx';
import { Loading, PageHead, Panel, Pending, Problem } from '../components/page.tsx';
import { OutsideLink } from '../components/outside-link.tsx';
import type { PageProps } from '../page-props.ts';
import { PLATFORMS, platformName } from '../../tenancy/tracked.ts';
import './activity.css';

type CardPage = Result<'shopping-cards'>;
type Card = CardPage['cards'][number];
type Visibility = Result<'product-visibility'>;

const PAGE_SIZE = '50';
/** The operation's largest page, for the CSV's walk through every card. */
const CSV_PAGE = '200';
const ROLE_WORDS = { own: 'Yours', competitor: 'Competitor', other: 'Other' } as const;
const FILTERS = ['role', 'platform', 'region'] as const;
type FilterName = (typeof FILTERS)[number];

/** Below this many days a line says less than the table under it. */
const CHART_MIN_DAYS = 7;
const DAY_MS = 86_400_000;

/** Every UTC day from the earliest to the latest of `dates` (YYYY-MM-DD), in order. */
function daysBetween(dates: string[]): string[] {
  if (!dates.length) return [];
  const ms = dates.map((d) => Date.parse(`${d}T00:00:00Z`));
  const out: string[] = [];
  for (let t = Math.min(...ms); t <= Math.max(...ms); t += DAY_MS) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

const price = (c: Card) =>
  c.price_amount === null ? '—' : `${c.price_amount}${c.price_currency ? ` ${c.price_currency}` : ''}`;
const maxCount = (rows: { count: number }[]) => rows.reduce((m, r) => Math.max(m, r.count), 0);

function ProductVisibility(p: { brandId: string; title: string }) {
  const vis = useLoad(
    () => read('product-visibility', { brand_id: p.brandId, product_title: p.title }),
    [p.brandId, p.title],
  );
  const v = vis.data;
  if (vis.error) return <Problem message={vis.error} />;
  if (!v || v.product_title !== p.title) return <Loading />;
  // The explorer reads the last 30 days when the address names no dates; product-visibility counts
  // all history, so its figures link with the span of its own days (first to last appearance).
  const dates = v.by_date.map((d) => d.date).sort();
  const span = { date_from: dates[0], date_to: dates[dates.length - 1] };
  const shopping = (more: Record<string, string | undefined>) =>
    answersHref(p.brandId, { mode: 'shopping', ...span, ...more });
  const csv = (name: string) => `product-${name}`;
  const byDay = (
    <DataTable
      caption="Appearances by day"
      csvName={csv('by-day')}
      columns={[
        { key: 'date', label: 'Day (UTC)' },
        {
          key: 'count',
          label: 'Appearances',
          align: 'right',
          render: (d: Visibility['by_date'][number]) => (
            <a href={shopping({ date_from: d.date, date_to: d.date })} onClick={followLink}>
              {d.count}
            </a>
          ),
          csv: (d: Visibility['by_date'][number]) => d.count,
        },
      ]}
      rows={v.by_date}
    />
  );
  // The API lists only days with an appearance: the chart runs day by day from the first to the
  // last, a day without a row drawn as none. A few days read better as the table alone.
  const counts = new Map(v.by_date.map((d) => [d.date, d.count]));
  const days = daysBetween(v.by_date.map((d) => d.date));
  return (
    <section class="panel" aria-labelledby="product-title">
      <div class="panel-head">
        <h2 id="product-title">{v.product_title}</h2>
      </div>
      <dl class="facts">
        <div>
          <dt>Appearances</dt>
          <dd>
            <a href={shopping({})} onClick={followLink}>
              {v.total_appearances}
            </a>
          </dd>
        </div>
        <div>
          <dt>Latest appearance</dt>
          <dd>{dateTime(v.latest_appearance)}</dd>
        </div>
        <div>
          <dt>Average rating</dt>
          <dd>{figure(v.average_rating)}</dd>
        </div>
        <div>
          <dt>Reviews</dt>
          <dd>{v.total_reviews}</dd>
        </div>
      </dl>
      <h3 class="section-title">Appearances by day</h3>
      {days.length >= CHART_MIN_DAYS ? (
        <LineChart
          label={`Daily appearances of ${v.product_title} in shopping answers`}
          summary={`From ${days[0]} to ${days[days.length - 1]}; days without a row had no appearance.`}
          days={days}
          series={[{ label: 'Appearances', values: days.map((d) => counts.get(d) ?? 0) }]}
          table={byDay}
        />
      ) : (
        byDay
      )}
      <div class="panel-grid">
        <div>
          <h3 class="section-title">By platform</h3>
          <DataTable
            caption="Appearances by platform"
            csvName={csv('by-platform')}
            columns={[
              {
                key: 'platform',
                label: 'Platform',
                render: (r: Visibility['by_platform'][number]) => (
                  <BarLabel value={r.count} max={maxCount(v.by_platform)}>
                    {platformName(r.platform)}
                  </BarLabel>
                ),
              },
              {
                key: 'count',
                label: 'Appearances',
                align: 'right',
                render: (r: Visibility['by_platform'][number]) => (
                  <a href={shopping({ platform: r.platform })} onClick={followLink}>
                    {r.count}
                  </a>
                ),
                csv: (r: Visibility['by_platform'][number]) => r.count,
              },
            ]}
            rows={v.by_platform}
          />
        </div>
        <div>
          <h3 class="section-title">By region</h3>
          <DataTable
            caption="Appearances by region"
            csvName={csv('by-region')}
            columns={[
              {
                key: 'region',
                label: 'Region',
                render: (r: Visibility['by_region'][number]) => (
                  <BarLabel value={r.count} max={maxCount(v.by_region)}>
                    {r.region || '—'}
                  </BarLabel>
                ),
              },
              {
                key: 'count',
                label: 'Appearances',
                align: 'right',
                render: (r: Visibility['by_region'][number]) => (
                  <a href={shopping({ region: r.region })} onClick={followLink}>
                    {r.count}
                  </a>
                ),
                csv: (r: Visibility['by_region'][number]) => r.count,
              },
            ]}
            rows={v.by_region}
          />
        </div>
      </div>
      <h3 class="section-title">Merchants</h3>
      <DataTable
        caption="Merchants selling it in these answers"
        csvName={csv('merchants')}
        columns={[
          {
            key: 'domain',
            label: 'Merchant',
            render: (r: Visibility['merchant_domains'][number]) => (
              <BarLabel value={r.count} max={maxCount(v.merchant_domains)}>
                {r.domain}
              </BarLabel>
            ),
          },
          { key: 'count', label: 'Cards', align: 'right' },
        ]}
        rows={v.merchant_domains}
        empty="No merchant is named on its cards."
      />
    </section>
  );
}

export function ShoppingPage(p: PageProps) {
  const brandId = p.params.brandId;
  const product = p.query.get('product') ?? undefined;
  const filters = Object.fromEntries(FILTERS.map((f) => [f, p.query.get(f) ?? ''])) as Record<FilterName, string>;
  const key = JSON.stringify(filters);
  const params = (cursor?: string, limit = PAGE_SIZE) => ({ brand_id: brandId, ...filters, limit, cursor });
  const first = useLoad(() => read('shopping-cards', params()), [brandId, key]);
  // Pages read with "Show more", appended to the first; a new filter starts over.
  const [more, setMore] = useState<{ cards: Card[]; next: string | null; error?: string }>();
  useEffect(() => setMore(undefined), [brandId, key, first.data]);
  const cards = [...(first.data?.cards ?? []), ...(more?.cards ?? [])];
  const next = more ? more.next : (first.data?.next_cursor ?? null);
  const showMore = async () => {
    if (!next) return;
    try {
      const page = await read('shopping-cards', params(next));
      setMore({ cards: [...(more?.cards ?? []), ...page.cards], next: page.next_cursor });
    } catch (err) {
      setMore({ cards: more?.cards ?? [], next, error: (err as Error).message });
    }
  };
  const allCards = async () => {
    const all: Card[] = [];
    let cursor: string | undefined;
    do {
      const page = await read('shopping-cards', params(cursor, CSV_PAGE));
      all.push(...page.cards);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return all;
  };
  const base = `/app/brands/${encodeURIComponent(brandId)}/shopping`;
  const hrefWith = (change: Record<string, string | undefined>) => {
    const q = new URLSearchParams(p.query);
    for (const [k, v] of Object.entries(change)) {
      if (v) q.set(k, v);
      else q.delete(k);
    }
    const qs = q.toString();
    return qs ? `${base}?${qs}` : base;
  };
  // The regions the brand's prompts are captured in, as the filter bar lists them.
  const prompts = useLoad(() => read('prompts', { brand_id: brandId, limit: '500' }), [brandId]);
  const regions = [
    ...new Set([filters.region, ...(prompts.data ?? []).flatMap((x) => x.regions)].filter(Boolean)),
  ].sort();
  return (
    <>
      <PageHead
        title="Shopping"
        intro={
          'Products shown in shopping answers for your prompts, newest first. Open a product to see where it ' +
          'appears.'
        }
      />
      <search class="filter-bar" aria-label="Filters">
        <QuerySelect
          name="role"
          label="Maker"
          all="All makers"
          options={[
            { value: 'own', label: 'Yours' },
            { value: 'competitor', label: 'Competitors' },
            { value: 'other', label: 'Others' },
          ]}
        />
        <QuerySelect
          name="platform"
          label="Platform"
          all="All platforms"
          options={PLATFORMS.map((x) => ({ value: x, label: platformName(x) }))}
        />
        <QuerySelect
          name="region"
          label="Region"
          all="All regions"
          options={regions.map((r) => ({ value: r, label: r }))}
        />
      </search>
      {product && <ProductVisibility brandId={brandId} title={product} />}
      <Panel title="Product cards">
        <Pending load={first} />
        {first.data && (
          <DataTable
            caption="Product cards in shopping answers, newest first"
            csvName="shopping-cards"
            allRows={allCards}
            rowKey={(c: Card) => c.id}
            class="cards-table"
            columns={[
              {
                key: 'product_title',
                label: 'Product',
                render: (c: Card) => (
                  <OpenLink href={hrefWith({ product: c.product_title })} open={c.product_title === product}>
                    {c.product_title}
                  </OpenLink>
                ),
              },
              {
                key: 'product_brand',
                label: 'Maker',
                render: (c: Card) => (
                  <>
                    {c.product_brand || '—'}{' '}
                    <span class={c.matched_brand_role === 'own' ? 'badge accent' : 'badge'}>
                      {ROLE_WORDS[c.matched_brand_role]}
                    </span>
                  </>
                ),
              },
              { key: 'matched_brand_role', label: 'Role', csvOnly: true },
              { key: 'position', label: 'Position', align: 'right' },
              { key: 'price_amount', label: 'Price', align: 'right', render: price },
              { key: 'price_currency', label: 'Currency', csvOnly: true },
              {
                key: 'merchant_domain',
                label: 'Merchant',
                render: (c: Card) =>
                  c.merchant_url || c.merchant_domain ? (
                    <OutsideLink url={c.merchant_url}>{c.merchant_domain ?? c.merchant_url}</OutsideLink>
                  ) : (
                    '—'
                  ),
              },
              { key: 'merchant_url', label: 'Merchant URL', csvOnly: true },
              {
                key: 'rating',
                label: 'Rating',
                align: 'right',
                render: (c: Card) => `${figure(c.rating)}${c.review_count === null ? '' : ` (${c.review_count})`}`,
              },
              { key: 'review_count', label: 'Reviews', csvOnly: true },
              {
                key: 'platform',
                label: 'Answers',
                // The shopping answers of that platform, region and day: among them, the one this card came from.
                render: (c: Card) => (
                  <a
                    href={answersHref(brandId, {
                      mode: 'shopping',
                      platform: c.platform,
                      region: c.region || undefined,
                      // A card is dated by its answer's collection: that UTC day holds the answer.
                      date_from: c.created_at.slice(0, 10),
                      date_to: c.created_at.slice(0, 10),
                    })}
                    onClick={followLink}
                  >
                    {platformName(c.platform)}
                    {c.region ? ` · ${c.region}` : ''}
                  </a>
                ),
              },
              { key: 'region', label: 'Region', csvOnly: true },
              { key: 'created_at', label: 'Seen', render: (c: Card) => day(c.created_at) },
            ]}
            rows={cards}
            empty="No product card matches these filters yet. Cards come from shopping-mode answers."
          />
        )}
        {more?.error && <Problem message={more.error} />}
        {next && (
          <p>
            <button type="button" onClick={showMore}>
              Show more cards
            </button>
          </p>
        )}
      </Panel>
    </>
  );
}
