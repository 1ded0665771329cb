// A synthetic warehouse for benchmarks, generated inside ClickHouse with INSERT ... SELECT over
// numbers(): deterministic (cityHash64 of the row number), shaped like real ingestion output
// (a brand row per answer, competitor rows only where named or cited, ~3 citations per answer,
// product cards for 5% of answers). Used by bench/analytics and bench/load.
import type { ClickHouse } from '../src/stores/clickhouse.ts';
import { type ColumnOf, columnsOf, type FactTable } from '../src/stores/fact-tables.ts';

export interface WarehouseBrand {
  organizationId: string;
  brandId: string;
  brandDomain: string;
  competitorIds: string[];
  competitorDomains: string[];
  promptIds: string[];
}

export const PLATFORM_MODELS: [string, string][] = [
  ['chatgpt', 'gpt-4o'],
  ['perplexity', 'sonar'],
  ['gemini', 'gemini-2.5-flash'],
  ['google_ai_overviews', 'google-aio'],
  ['google_ai_mode', 'google-ai-mode'],
  ['claude', 'claude-sonnet-4'],
  ['copilot', 'copilot'],
];

// Answer n of a brand: day n / (prompts x 7), prompt (n / 7) % prompts, platform n % 7.
const ANSWER = `
  intDiv(number, {perDay:UInt64}) AS d,
  toDate({start:Date}) + d AS day_,
  {prompts:Array(UUID)}[intDiv(number, 7) % length({prompts:Array(UUID)}) + 1] AS prompt_,
  {platforms:Array(String)}[number % 7 + 1] AS platform_,
  {models:Array(String)}[number % 7 + 1] AS model_,
  if(cityHash64(number, 3, {seed:UInt64}) % 2 = 0, 'US', 'GB') AS region_,
  toDateTime64(day_, 3, 'UTC') + toIntervalSecond(cityHash64(number, 5, {seed:UInt64}) % 86400) AS at_,
  lower(leftPad(hex(cityHash64(number, 1, {seed:UInt64})), 16, '0') || leftPad(hex(cityHash64(number, 2, {seed:UInt64})), 16, '0')) AS h_,
  toUUID(substring(h_, 1, 8) || '-' || substring(h_, 9, 4) || '-4' || substring(h_, 14, 3) || '-8' || substring(h_, 18, 3) || '-' || substring(h_, 21, 12)) AS answer_`;

/**
 * `INSERT INTO table (columns, sign) SELECT values, 1`, each value given beside its column's name
 * and the columns in their declared order (src/stores/fact-tables.ts), so a renamed column fails the
 * type check; a column left out takes its type's default.
 */
function insertSelect<T extends FactTable>(table: T, values: Partial<Record<ColumnOf<T>, string>>): string {
  const named = columnsOf(table).filter((c) => values[c] !== undefined);
  return `INSERT INTO ${table} (${[...named, 'sign'].join(', ')})
      SELECT ${[...named.map((c) => values[c]), '1'].join(', ')}`;
}

// The answer's columns every fact table repeats, as ANSWER names them.
const OF_ANSWER = {
  answer_id: 'answer_',
  brand_id: '{brand:UUID}',
  prompt_id: 'prompt_',
  platform: 'platform_',
  model: 'model_',
  region: 'region_',
  day: 'day_',
} as const;

export async function generateBrand(
  ch: ClickHouse,
  b: WarehouseBrand,
  opts: { start: string; days: number; seed: number },
) {
  const perDay = b.promptIds.length * 7;
  const total = perDay * opts.days;
  const params = {
    perDay,
    start: opts.start,
    seed: opts.seed,
    prompts: b.promptIds,
    brand: b.brandId,
    org: b.organizationId,
    platforms: PLATFORM_MODELS.map((p) => p[0]),
    models: PLATFORM_MODELS.map((p) => p[1]),
    comps: b.competitorIds,
    compDomains: b.competitorDomains,
    brandDomain: b.brandDomain,
    total,
  };
  const settings = { max_insert_threads: '2', max_threads: '2' } as Record<string, string>;
  await ch.command({
    query: `${insertSelect('answers', {
      ...OF_ANSWER,
      organization_id: '{org:UUID}',
      mode: "'standard'",
      collected_at: 'at_',
      text: "''",
      citation_count: '3',
      product_count: '0',
    })}
      FROM (SELECT number, ${ANSWER} FROM numbers({total:UInt64}))`,
    query_params: params,
    clickhouse_settings: settings,
  });
  // Entity 0 is the brand; entity i > 0 competitor i, present in 30% of answers. A competitor row is
  // named or cited by construction, like the rows ingestion writes.
  await ch.command({
    query: `${insertSelect('answer_entities', {
      ...OF_ANSWER,
      entity_id: 'if(e = 0, {brand:UUID}, {comps:Array(UUID)}[e])',
      is_brand: 'e = 0',
      collected_at: 'at_',
      mentions: 'mentions_',
      position: 'position_',
      citations: 'cited_',
      score: '60 * (mentions_ > 0) + 25 * cited_ + if(position_ > 0, 15 / position_, 0)',
    })}
      FROM (
        SELECT *, e, cityHash64(number, e, 19, {seed:UInt64}) % 100 < if(e = 0, 25, 30) AS cited_,
          (e = 0 AND cityHash64(number, e, 11, {seed:UInt64}) % 100 < 35 + (number % 7) * 5 + d % 30)
            OR (e > 0 AND (NOT cited_ OR cityHash64(number, e, 11, {seed:UInt64}) % 100 < 85)) AS named_,
          if(named_, 1 + cityHash64(number, e, 17, {seed:UInt64}) % 3, 0) AS mentions_,
          if(named_, 1 + cityHash64(number, e, 13, {seed:UInt64}) % 4, 0) AS position_
        FROM (SELECT number, ${ANSWER} FROM numbers({total:UInt64}))
        ARRAY JOIN arrayFilter(i -> i = 0 OR cityHash64(number, i, 7, {seed:UInt64}) % 100 < 30, range(0, length({comps:Array(UUID)}) + 1)) AS e)`,
    query_params: params,
    clickhouse_settings: settings,
  });
  await ch.command({
    // First-of-kind flags as ingestion sets them (k = 0 is the answer's first citation; the rare
    // repeated domain within one answer is counted as a first too, a negligible overstatement here).
    // Whom the answer names, as its entity rows above have it: the brand, and each competitor
    // present (hash 7) and named (not cited, or hash 11).
    query: `${insertSelect('answer_citations', {
      ...OF_ANSWER,
      collected_at: 'at_',
      url: 'url_',
      domain: 'domain_',
      category: 'category_',
      article_type: 'type_',
      title: "'Title ' || url_",
      domain_first: '1',
      group_first: 'k = 0',
      answer_first: 'k = 0',
      names_brand: 'cityHash64(number, 0, 11, {seed:UInt64}) % 100 < 35 + (number % 7) * 5 + d % 30',
      named_competitors: `arraySort(x -> toString(x), arrayMap(i -> {comps:Array(UUID)}[i], arrayFilter(
          i -> cityHash64(number, i, 7, {seed:UInt64}) % 100 < 30
            AND (cityHash64(number, i, 19, {seed:UInt64}) % 100 >= 30 OR cityHash64(number, i, 11, {seed:UInt64}) % 100 < 85),
          range(1, length({comps:Array(UUID)}) + 1))))`,
    })}
      FROM (
        SELECT *, k, cityHash64(number, k, 23, {seed:UInt64}) % 3000 AS di,
          multiIf(di < 60, {brandDomain:String}, di < 300, {compDomains:Array(String)}[di % length({compDomains:Array(String)}) + 1], 'site' || toString(di) || '.example') AS domain_,
          multiIf(di < 60, 'you', di < 300, 'competitor', ['editorial', 'forum', 'social', 'review', 'institutional', 'other'][di % 6 + 1]) AS category_,
          'https://' || domain_ || '/p' || toString(cityHash64(number, k, 29, {seed:UInt64}) % 40) AS url_,
          -- Ingestion derives a citation's article type from its URL and title, and the title here
          -- follows from the URL: so does the type.
          ['listicle', 'comparison', 'review', 'how_to', 'news', 'product', 'homepage', 'discussion', 'documentation', 'other'][cityHash64(url_) % 10 + 1] AS type_
        FROM (SELECT number, ${ANSWER} FROM numbers({total:UInt64}))
        ARRAY JOIN range(0, 3) AS k)`,
    query_params: params,
    clickhouse_settings: settings,
  });
  // Product cards for 5% of answers, 4 each.
  await ch.command({
    query: `${insertSelect('shopping_cards', {
      ...OF_ANSWER,
      card_id: 'generateUUIDv4()',
      organization_id: '{org:UUID}',
      created_at: 'at_',
      position: 'p + 1',
      product_title: "'Product ' || toString(cityHash64(number, p, 37) % 200)",
      product_brand: "'Maker'",
      price_amount: '10 + cityHash64(number, p) % 500',
      price_currency: "'USD'",
      image_url: 'NULL',
      merchant_url: "'https://shop.example/p'",
      merchant_domain: "'shop.example'",
      rating: '3.5 + (cityHash64(number, p, 41) % 15) / 10',
      review_count: 'cityHash64(number, p, 43) % 1000',
      raw: "'{}'",
      matched_brand_id: 'NULL',
      matched_brand_role: "['own', 'competitor', 'other'][p % 3 + 1]",
    })}
      FROM (SELECT number, ${ANSWER} FROM numbers({total:UInt64}) WHERE cityHash64(number, 47, {seed:UInt64}) % 20 = 0)
      ARRAY JOIN range(0, 4) AS p`,
    query_params: params,
    clickhouse_settings: settings,
  });
  return total;
}

/** AI visits for a brand: `count` visits spread over the period. */
export async function generateVisits(
  ch: ClickHouse,
  brandId: string,
  opts: { start: string; days: number; count: number },
) {
  await ch.command({
    query: `INSERT INTO ai_visits (brand_id, ts, day, platform, path, country, referrer_host)
      SELECT {brand:UUID}, toDateTime64(toDate({start:Date}) + number % {days:UInt32}, 3, 'UTC') + toIntervalSecond(number % 86400),
        toDate({start:Date}) + number % {days:UInt32},
        ['chatgpt', 'perplexity', 'gemini', 'copilot', 'claude'][cityHash64(number) % 5 + 1],
        '/page/' || toString(cityHash64(number, 1) % 300), ['US', 'GB', 'DE', 'FR', 'XX'][cityHash64(number, 2) % 5 + 1], 'chatgpt.com'
      FROM numbers({count:UInt64})`,
    query_params: { brand: brandId, ...opts },
  });
}
