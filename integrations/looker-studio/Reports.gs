// The reports a data source can hold: each declares its fields (dimensions, and metrics with the
// aggregation Looker Studio applies when it groups rows) and turns Metrics API responses into rows,
// one object per row keyed by field id. Values are the API's own figures, unchanged, except dates
// (YYYYMMDD for YEAR_MONTH_DAY) and lists (joined with ", ").
// Apps Script loads every .gs file of the project into one global scope and Looker Studio calls
// the connector's functions by name, so a function unused in its own file is still used. The
// files keep to ES5 syntax and built-ins, which every Apps Script runtime runs.
// biome-ignore-all lint/correctness/noUnusedVariables: used from the other .gs files (see above)
// biome-ignore-all lint/complexity/useArrowFunction: ES5 on purpose (see above)
// biome-ignore-all lint/style/useTemplate: ES5 on purpose (see above)

// Shopping cards come newest first, this many per request, followed by next_cursor.
var SHOPPING_PAGE_SIZE = 200;
// At most this many pages per request (Apps Script stops a call after six minutes).
var SHOPPING_MAX_PAGES = 100;

function dimension(id, name, type, description) {
  return { kind: 'dimension', id: id, name: name, type: type, description: description };
}

function metric(id, name, aggregation, description) {
  return { kind: 'metric', id: id, name: name, type: 'NUMBER', aggregation: aggregation, description: description };
}

/** '2026-11-02' (or an ISO timestamp) as Looker Studio's YEAR_MONTH_DAY, '20261102'. */
function compactDate(value) {
  return String(value).slice(0, 10).replace(/-/g, '');
}

/** The request's date range as the API's date_from / date_to (both omitted: all history). */
function rangeParams(ctx) {
  return { brand_id: ctx.brandId, date_from: ctx.dateFrom, date_to: ctx.dateTo };
}

var REPORTS = {
  visibility_trend: {
    label: 'Visibility trend (daily)',
    fields: [
      dimension('date', 'Date', 'YEAR_MONTH_DAY', 'UTC day of the answers'),
      metric('result_count', 'Answers', 'SUM', 'Answers collected that day (shopping answers excluded)'),
      metric(
        'avg_visibility_score',
        'Avg. visibility score',
        'AVG',
        'Mean per-answer visibility score, 0-100, rounded',
      ),
      metric('ai_visibility_score', 'AI visibility score', 'AVG', "The day's AI visibility score, 0-100"),
      metric('total_mentions', 'Mentions', 'SUM', 'Mentions of the brand'),
      metric('total_citations', 'Citations', 'SUM', "Citations of the brand's domains"),
      metric('avg_competitor_score', 'Avg. competitor score', 'AVG', 'Mean score of competitors where named or cited'),
    ],
    rows: function (ctx) {
      var params = rangeParams(ctx);
      params.granularity = 'day';
      return apiGet(ctx.baseUrl, 'visibility-trend', params).buckets.map(function (b) {
        return {
          date: compactDate(b.date),
          result_count: b.result_count,
          avg_visibility_score: b.avg_visibility_score,
          ai_visibility_score: b.ai_visibility_score,
          total_mentions: b.total_mentions,
          total_citations: b.total_citations,
          avg_competitor_score: b.avg_competitor_score,
        };
      });
    },
  },

  competitor_comparison: {
    label: 'Competitor comparison',
    fields: [
      dimension('entity', 'Brand or competitor', 'TEXT'),
      dimension('entity_id', 'Brand or competitor id', 'TEXT'),
      dimension('entity_role', 'Role', 'TEXT', 'brand or competitor'),
      metric('avg_visibility_score', 'Avg. visibility score', 'AVG', 'Mean per-answer visibility score, 0-100'),
      metric('ai_visibility_score', 'AI visibility score', 'AVG', 'AI visibility score over the same answers, 0-100'),
      metric('total_mentions', 'Mentions', 'SUM'),
      metric('total_citations', 'Citations', 'SUM'),
      metric('appearance_count', 'Answers naming it', 'SUM'),
    ],
    rows: function (ctx) {
      var body = apiGet(ctx.baseUrl, 'competitor-comparison', rangeParams(ctx));
      var row = function (role, id, item) {
        return {
          entity: item.name,
          entity_id: id,
          entity_role: role,
          avg_visibility_score: item.avg_visibility_score,
          ai_visibility_score: item.ai_visibility_score,
          total_mentions: item.total_mentions,
          total_citations: item.total_citations,
          appearance_count: item.appearance_count,
        };
      };
      return [row('brand', body.brand.id, body.brand)].concat(
        body.competitors.map(function (c) {
          return row('competitor', c.competitor_id, c);
        }),
      );
    },
  },

  share_of_voice: {
    label: 'Share of voice by platform',
    fields: [
      dimension('platform', 'Platform', 'TEXT'),
      dimension('model', 'Model', 'TEXT', 'model_used reported by the engine'),
      metric('brand_mentions', 'Brand mentions', 'SUM'),
      metric('competitor_mentions', 'Competitor mentions', 'SUM'),
      metric('sov_pct', 'Share of voice %', 'AVG', 'Brand mentions / all mentions x 100 for the platform and model'),
    ],
    rows: function (ctx) {
      return apiGet(ctx.baseUrl, 'competitor-comparison', rangeParams(ctx)).share_of_voice.by_platform.map(
        function (p) {
          return {
            platform: p.platform,
            model: p.model_used,
            brand_mentions: p.brand_mentions,
            competitor_mentions: p.competitor_mentions,
            sov_pct: p.sov_pct,
          };
        },
      );
    },
  },

  citations_by_domain: {
    label: 'Citations by domain',
    fields: [
      dimension('domain', 'Domain', 'TEXT'),
      dimension(
        'category',
        'Source type',
        'TEXT',
        'you, competitor, editorial, forum, social, review, institutional or other',
      ),
      dimension('models', 'Models citing it', 'TEXT'),
      dimension('top_article_type', 'Main article type', 'TEXT'),
      metric('total_citations', 'Citations', 'SUM'),
      metric('results_citing', 'Answers citing it', 'SUM'),
      metric('usage_pct', 'Usage %', 'AVG', 'Share of answers citing the domain x 100'),
    ],
    rows: function (ctx) {
      var params = rangeParams(ctx);
      params.limit = 200;
      return apiGet(ctx.baseUrl, 'citations', params).top_domains.map(function (d) {
        return {
          domain: d.domain,
          category: d.category,
          models: d.models.join(', '),
          top_article_type: d.article_types.length ? d.article_types[0].type : null,
          total_citations: d.total_citations,
          results_citing: d.results_citing,
          usage_pct: d.usage_pct,
        };
      });
    },
  },

  visibility_confidence: {
    label: 'Visibility with 95% intervals',
    fields: [
      dimension('entity', 'Brand or competitor', 'TEXT'),
      dimension('entity_id', 'Brand or competitor id', 'TEXT'),
      dimension('entity_role', 'Role', 'TEXT', 'brand or competitor'),
      metric('answers', 'Answers', 'AVG', 'Answers the figures are computed over (the same on every row)'),
      metric('mention_rate', 'Mention rate %', 'AVG', 'Answers naming it / answers x 100'),
      metric('mention_rate_low', 'Mention rate, 95% low', 'AVG', 'Wilson score interval'),
      metric('mention_rate_high', 'Mention rate, 95% high', 'AVG', 'Wilson score interval'),
      metric('citation_rate', 'Citation rate %', 'AVG', 'Answers citing it / answers x 100'),
      metric('citation_rate_low', 'Citation rate, 95% low', 'AVG', 'Wilson score interval'),
      metric('citation_rate_high', 'Citation rate, 95% high', 'AVG', 'Wilson score interval'),
      metric('ai_visibility_score', 'AI visibility score', 'AVG', '0-100'),
      metric('ai_visibility_score_low', 'AI visibility score, 95% low', 'AVG', 'Bootstrap over answers'),
      metric('ai_visibility_score_high', 'AI visibility score, 95% high', 'AVG', 'Bootstrap over answers'),
      metric('share_of_voice', 'Share of voice %', 'AVG', 'The brand row only'),
      metric('share_of_voice_low', 'Share of voice, 95% low', 'AVG', 'Bootstrap over answers; the brand row only'),
      metric('share_of_voice_high', 'Share of voice, 95% high', 'AVG', 'Bootstrap over answers; the brand row only'),
    ],
    // One row per entity; each {value, ci95} figure becomes three columns (null without answers).
    rows: function (ctx) {
      var body = apiGet(ctx.baseUrl, 'visibility-confidence', rangeParams(ctx));
      return body.entities.map(function (e) {
        var row = {
          entity: e.name,
          entity_id: e.entity_id,
          entity_role: e.is_brand ? 'brand' : 'competitor',
          answers: body.n,
        };
        ['mention_rate', 'citation_rate', 'ai_visibility_score', 'share_of_voice'].forEach(function (id) {
          var figure = e[id] || { value: null, ci95: null };
          row[id] = figure.value;
          row[id + '_low'] = figure.ci95 ? figure.ci95[0] : null;
          row[id + '_high'] = figure.ci95 ? figure.ci95[1] : null;
        });
        return row;
      });
    },
  },

  sentiment: {
    label: 'Sentiment',
    fields: [
      dimension('entity', 'Brand or competitor', 'TEXT'),
      dimension('entity_id', 'Brand or competitor id', 'TEXT'),
      dimension('entity_role', 'Role', 'TEXT', 'brand or competitor'),
      metric('assessed', 'Answers naming it', 'SUM'),
      metric('positive', 'Positive', 'SUM', 'Answers speaking of it positively'),
      metric('neutral', 'Neutral', 'SUM'),
      metric('negative', 'Negative', 'SUM'),
      metric('net_sentiment', 'Net sentiment', 'AVG', '100 x (positive - negative) / answers naming it, -100 to 100'),
    ],
    rows: function (ctx) {
      return apiGet(ctx.baseUrl, 'sentiment', rangeParams(ctx)).entities.map(function (e) {
        return {
          entity: e.name,
          entity_id: e.entity_id,
          entity_role: e.is_brand ? 'brand' : 'competitor',
          assessed: e.assessed,
          positive: e.positive,
          neutral: e.neutral,
          negative: e.negative,
          net_sentiment: e.net_sentiment,
        };
      });
    },
  },

  prompt_performance: {
    label: 'Prompt performance',
    fields: [
      dimension('prompt', 'Prompt', 'TEXT'),
      dimension('prompt_id', 'Prompt id', 'TEXT'),
      dimension('topic', 'Topic', 'TEXT'),
      metric('result_count', 'Answers', 'SUM'),
      metric('avg_visibility', 'Avg. visibility', 'AVG', 'Mean per-answer visibility score of the brand, 0-100'),
      metric('total_mentions', 'Mentions', 'SUM'),
      metric('total_citations', 'Citations', 'SUM'),
      metric('avg_competitor_score', 'Avg. competitor score', 'AVG'),
    ],
    rows: function (ctx) {
      var params = rangeParams(ctx);
      params.limit = 100;
      return apiGet(ctx.baseUrl, 'prompt-performance', params).prompts.map(function (p) {
        return {
          prompt: p.prompt_text,
          prompt_id: p.prompt_id,
          topic: p.topic_name,
          result_count: p.result_count,
          avg_visibility: p.avg_visibility,
          total_mentions: p.total_mentions,
          total_citations: p.total_citations,
          avg_competitor_score: p.avg_competitor_score,
        };
      });
    },
  },

  search_queries: {
    label: 'Search queries (fan-out)',
    fields: [
      dimension('query', 'Search query', 'TEXT', 'A web search the AI platform ran before answering, lower-cased'),
      dimension('platforms', 'Platforms', 'TEXT', 'Platforms that ran it'),
      metric('answers', 'Answers', 'SUM', 'Answers whose platform ran the query'),
      metric('brand_named_pct', 'Brand named %', 'AVG', 'Share of those answers naming the brand x 100'),
    ],
    rows: function (ctx) {
      var params = rangeParams(ctx);
      params.limit = 200;
      return apiGet(ctx.baseUrl, 'search-queries', params).top_queries.map(function (q) {
        return {
          query: q.query,
          platforms: q.platforms.join(', '),
          answers: q.answers,
          brand_named_pct: q.brand_named_pct,
        };
      });
    },
  },

  ai_traffic: {
    label: 'AI traffic',
    fields: [
      dimension('platform', 'AI platform', 'TEXT'),
      dimension('page_path', 'Page path', 'TEXT', 'The 10 most visited pages'),
      dimension('country', 'Country', 'TEXT', 'Two-letter code, XX when unknown'),
      metric('visits', 'Visits', 'SUM'),
    ],
    // The API gives one breakdown at a time, so a chart may use one of the three dimensions.
    rows: function (ctx) {
      var body = apiGet(ctx.baseUrl, 'ai-traffic', rangeParams(ctx));
      var used = ['platform', 'page_path', 'country'].filter(function (id) {
        return ctx.fieldIds.indexOf(id) >= 0;
      });
      if (used.length > 1)
        throw new ConnectorError('AI traffic: use only one of AI platform, Page path and Country in a chart.');
      if (used[0] === 'platform')
        return body.platform_breakdown.map(function (r) {
          return { platform: r.platform, visits: r.visits };
        });
      if (used[0] === 'page_path')
        return body.top_pages.map(function (r) {
          return { page_path: r.url, visits: r.visits };
        });
      if (used[0] === 'country')
        return body.country_breakdown.map(function (r) {
          return { country: r.country, visits: r.visits };
        });
      return [{ visits: body.total_visits }];
    },
  },

  shopping_cards: {
    label: 'Shopping cards',
    fields: [
      dimension('date', 'Date', 'YEAR_MONTH_DAY', 'UTC day the card was shown'),
      dimension('card_id', 'Card id', 'TEXT'),
      dimension('product_title', 'Product', 'TEXT'),
      dimension('product_brand', 'Product brand', 'TEXT'),
      dimension('matched_brand_role', 'Whose product', 'TEXT', 'own, competitor or other'),
      dimension('platform', 'Platform', 'TEXT'),
      dimension('region', 'Region', 'TEXT'),
      dimension('merchant_domain', 'Merchant', 'TEXT'),
      dimension('merchant_url', 'Merchant URL', 'URL'),
      dimension('price_currency', 'Currency', 'TEXT'),
      metric('cards', 'Cards', 'SUM', 'Number of cards (1 per row)'),
      metric('position', 'Avg. position', 'AVG', 'Position of the card in the answer, 1 = first'),
      metric('price_amount', 'Avg. price', 'AVG'),
      metric('rating', 'Avg. rating', 'AVG'),
      metric('review_count', 'Reviews', 'SUM'),
    ],
    // The API has no date filter: pages are read newest first and stop at the range's first day.
    rows: function (ctx) {
      var rows = [];
      var cursor = null;
      var page, body, older;
      for (page = 0; page < SHOPPING_MAX_PAGES; page++) {
        body = apiGet(ctx.baseUrl, 'shopping-cards', {
          brand_id: ctx.brandId,
          limit: SHOPPING_PAGE_SIZE,
          cursor: cursor,
        });
        older = false;
        body.cards.forEach(function (c) {
          var day = String(c.created_at).slice(0, 10);
          if (ctx.dateFrom && day < ctx.dateFrom) {
            older = true;
            return;
          }
          if (ctx.dateTo && day > ctx.dateTo) return;
          rows.push({
            date: compactDate(day),
            card_id: c.id,
            product_title: c.product_title,
            product_brand: c.product_brand,
            matched_brand_role: c.matched_brand_role,
            platform: c.platform,
            region: c.region,
            merchant_domain: c.merchant_domain,
            merchant_url: c.merchant_url,
            price_currency: c.price_currency,
            cards: 1,
            position: c.position,
            price_amount: c.price_amount,
            rating: c.rating,
            review_count: c.review_count,
          });
        });
        cursor = body.next_cursor;
        if (!cursor || older) return rows;
      }
      throw new ConnectorError(
        'Shopping cards: more than ' +
          SHOPPING_MAX_PAGES * SHOPPING_PAGE_SIZE +
          ' cards in the date range; choose a shorter range.',
      );
    },
  },
};
