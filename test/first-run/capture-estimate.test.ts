// The cost preview equals a computation from the price table for a chosen set-up: each platform's
// captures a day and a month, and the cost of a month from the table's prices and its assumed
// usage per answer; platforms off the plan are named apart; PROVIDER_PRICES replaces the table and
// a file that does not parse is refused; every built-in price names an https source and a date.
// test-process: shared
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import test from 'ava';
import { get, seedTenant, startTestServer, type TestServer } from '../helpers/server.ts';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { estimate, priceTable } from '../../src/tracking/capture/prices.ts';

const TABLE = JSON.parse(
  fs.readFileSync(new URL('../../src/tracking/capture/provider-prices.json', import.meta.url), 'utf8'),
);
const PROVIDER: Record<string, string> = {
  chatgpt: 'openai',
  perplexity: 'perplexity',
  gemini: 'gemini',
  claude: 'anthropic',
};

/** The test's own reading of the table: what one answer costs with a provider. */
function perAnswer(table: any, provider: string): number {
  const p = table.providers[provider];
  let usd = 0;
  for (const price of p.prices) usd += (price.usd * p.usage_per_answer[price.unit]) / price.per;
  return usd;
}

let server: TestServer;
test.before(async () => {
  server = await startTestServer({ OPENAI_API_KEY: 'sk-test' });
});
test.after.always(async () => {
  await server?.stop();
});

test('a chosen set-up: captures per platform and a month priced from the table', async (t) => {
  const tenant = await seedTenant(server); // growth plan: every platform but Grok
  const q = 'platforms=chatgpt,perplexity,gemini,claude,grok&prompts=12&regions=US,GB&samples=2';
  const r = await get(server, `/api/mcp/capture-estimate?brand_id=${tenant.brandId}&${q}`, tenant.key);
  t.is(r.status, 200);
  t.deepEqual(r.body.not_on_plan, ['grok']);
  let total = 0;
  for (const row of r.body.platforms) {
    t.is(row.captures_per_day, 12 * 2 * 2);
    t.is(row.captures_per_month, 12 * 2 * 2 * 30);
    const month = Math.round(perAnswer(TABLE, PROVIDER[row.platform]) * row.captures_per_month * 100) / 100;
    t.is(row.monthly_cost_usd, month, row.platform);
    total += month;
  }
  t.deepEqual(
    r.body.platforms.map((p: any) => p.platform),
    ['chatgpt', 'perplexity', 'gemini', 'claude'],
  );
  t.is(r.body.monthly_cost_usd, Math.round(total * 100) / 100);
  t.is(r.body.captures_per_month, 4 * 1440);
  // Which keys are set: the server's, not the table's.
  t.deepEqual(
    r.body.platforms.map((p: any) => [p.platform, p.configured, p.key_variable]),
    [
      ['chatgpt', true, 'OPENAI_API_KEY'],
      ['perplexity', false, 'PERPLEXITY_API_KEY'],
      ['gemini', false, 'GEMINI_API_KEY'],
      ['claude', false, 'ANTHROPIC_API_KEY'],
    ],
  );
});

test('the brand as set up: its active prompts on its platforms', async (t) => {
  const tenant = await seedTenant(server); // one prompt on ChatGPT and Perplexity, region US
  const r = await get(server, `/api/mcp/capture-estimate?brand_id=${tenant.brandId}`, tenant.key);
  t.deepEqual(
    r.body.platforms.map((p: any) => [p.platform, p.captures_per_day, p.captures_per_month]),
    [
      ['chatgpt', 1, 30],
      ['perplexity', 1, 30],
    ],
  );
  const bad = await get(server, `/api/mcp/capture-estimate?brand_id=${tenant.brandId}&platforms=altavista`, tenant.key);
  t.is(bad.status, 400);
  t.regex(bad.body.error, /^platforms must be among/);
  const samples = await get(server, `/api/mcp/capture-estimate?brand_id=${tenant.brandId}&samples=0`, tenant.key);
  t.is(samples.status, 400);
  t.is(samples.body.error, 'samples must be a whole number from 1 to 20');
});

test('brand-proposal: a loopback website is refused (ALLOW_PRIVATE_URLS unset), a 400 about website', async (t) => {
  const tenant = await seedTenant(server);
  const r = await get(server, `/api/mcp/brand-proposal?website=${encodeURIComponent(server.url)}`, tenant.key);
  t.is(r.status, 400);
  t.regex(r.body.error, /^website could not be read: .*loopback/);
  t.is(r.body.field, 'website');
  const bad = await get(server, '/api/mcp/brand-proposal?website=ftp%3A%2F%2Fx.example', tenant.key);
  t.is(bad.body.error, 'website must be an http or https address');
});

test('every built-in price names an https source and a date', (t) => {
  for (const [provider, p] of Object.entries<any>(TABLE.providers)) {
    t.true(p.prices.length > 0, provider);
    for (const price of p.prices) {
      t.regex(price.source, /^https:\/\//, `${provider}: ${price.what}`);
      t.regex(price.date, /^\d{4}-\d{2}-\d{2}$/);
      t.true(['published', 'read'].includes(price.date_is));
    }
  }
});

// Prices found on the provider's own pricing page cite that page. The others still cite third-party
// pages (OpenAI, Gemini, Claude's web search, xAI's tokens, SerpApi): no official page stated them.
test("the prices read from a provider's own page cite it, and the third-party pages they replaced are gone", (t) => {
  const host = (url: string) => new URL(url).hostname;
  for (const price of TABLE.providers.perplexity.prices) t.is(host(price.source), 'docs.perplexity.ai', price.what);
  for (const price of TABLE.providers.anthropic.prices.filter((x: any) => x.unit !== 'requests'))
    t.is(host(price.source), 'platform.claude.com', price.what);
  const replaced = ['developer.puter.com', 'skills.sh', 'www.skills.sh'];
  for (const [provider, p] of Object.entries<any>(TABLE.providers))
    for (const price of p.prices) t.false(replaced.includes(host(price.source)), `${provider}: ${price.what}`);
});

test('PROVIDER_PRICES replaces the table; a file that does not parse is refused', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prices-'));
  const own = {
    currency: 'USD',
    providers: {
      openai: {
        model: 'gpt-4o',
        usage_per_answer: { input_tokens: 0, output_tokens: 0, requests: 1 },
        prices: [
          {
            what: 'a flat fee',
            unit: 'requests',
            usd: 1,
            per: 100,
            source: 'https://example.com/p',
            date: '2026-11-01',
            date_is: 'read',
          },
        ],
      },
    },
  };
  fs.writeFileSync(path.join(dir, 'own.json'), JSON.stringify(own));
  const config = loadConfig({ PROVIDER_PRICES: path.join(dir, 'own.json') });
  const e = estimate(
    config.tracking,
    new Map([
      ['chatgpt', 10],
      ['perplexity', 2],
    ]),
  );
  t.is(e.price_table, 'PROVIDER_PRICES');
  t.is(e.platforms[0].monthly_cost_usd, 3); // 300 answers at $0.01
  t.deepEqual(e.unpriced, ['perplexity']);
  t.is(e.monthly_cost_usd, 3);
  fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ currency: 'EUR', providers: {} }));
  const bad = loadConfig({ PROVIDER_PRICES: path.join(dir, 'bad.json') });
  t.throws(() => priceTable(bad.tracking), { instanceOf: ConfigError, message: /PROVIDER_PRICES: .*currency/ });
});
