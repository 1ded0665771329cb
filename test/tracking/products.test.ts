// test-process: shared
import test from 'ava';
import { compileEntities } from '../../src/tracking/analysis/analyze.ts';
import { parseCards, parseLocaleNumber, parsePrice } from '../../src/tracking/analysis/products.ts';
import type { ProductInput } from '../../src/tracking/types.ts';
import type { Entity } from '../../src/tenancy/tracked.ts';

type Price = { amount: number | null; currency: string | null };

/** [price as scraped, currency hint, what parsePrice reads], grouped by the rule each group shows. */
const PRICES: Record<string, [input: unknown, hint: string | undefined, expected: Price][]> = {
  'symbols, codes and both decimal conventions': [
    ['$1,299.99', undefined, { amount: 1299.99, currency: 'USD' }],
    ['€29,99', undefined, { amount: 29.99, currency: 'EUR' }],
    ['29,99 €', undefined, { amount: 29.99, currency: 'EUR' }],
    ['₺2.699,99', undefined, { amount: 2699.99, currency: 'TRY' }],
    ['£1.299', undefined, { amount: 1299, currency: 'GBP' }],
    ['1 299,00 zł', undefined, { amount: 1299, currency: 'PLN' }],
    ['USD 12.50', undefined, { amount: 12.5, currency: 'USD' }],
    ['12,50 eur', undefined, { amount: 12.5, currency: 'EUR' }],
    ['¥12,800', undefined, { amount: 12800, currency: 'JPY' }],
    ['₹1,49,999', undefined, { amount: 149999, currency: 'INR' }],
    ["CHF 1'299.50", undefined, { amount: 1299.5, currency: 'CHF' }],
    ['US$ 5', undefined, { amount: 5, currency: 'USD' }],
    ['R$ 49,90', undefined, { amount: 49.9, currency: 'BRL' }],
    ['1.299.000 ₫', undefined, { amount: 1299000, currency: 'VND' }],
    ['$10 - $20', undefined, { amount: 10, currency: 'USD' }],
    ['12 TRY', undefined, { amount: 12, currency: 'TRY' }],
    ['$12 pen set, try it', undefined, { amount: 12, currency: 'USD' }],
    ['199 kr', undefined, { amount: 199, currency: 'SEK' }],
    ['Kr 199', undefined, { amount: 199, currency: null }],
  ],
  'plain numbers and strings take the hint': [
    ['12.50', undefined, { amount: 12.5, currency: null }],
    ['12.50', 'usd', { amount: 12.5, currency: 'USD' }],
    [19.99, 'EUR', { amount: 19.99, currency: 'EUR' }],
    [0, undefined, { amount: 0, currency: null }],
    [5, '€', { amount: 5, currency: 'EUR' }],
    // An ambiguous symbol follows the hint when the hint is one of its currencies...
    ['$19.99', 'CAD', { amount: 19.99, currency: 'CAD' }],
    ['¥99', 'CNY', { amount: 99, currency: 'CNY' }],
    ['199 kr', 'NOK', { amount: 199, currency: 'NOK' }],
    // ...but what the string says wins over a hint that contradicts it.
    ['€5', 'USD', { amount: 5, currency: 'EUR' }],
    ['GBP 5', 'USD', { amount: 5, currency: 'GBP' }],
  ],
  'nothing readable gives nulls': [
    [null, undefined, { amount: null, currency: null }],
    [undefined, 'USD', { amount: null, currency: null }],
    ['', undefined, { amount: null, currency: null }],
    ['Free', undefined, { amount: null, currency: null }],
    ['$', undefined, { amount: null, currency: null }],
    [Number.NaN, 'USD', { amount: null, currency: null }],
    [{ amount: 5 }, undefined, { amount: null, currency: null }],
  ],
};

/** A test title's view of an input: strings and objects as JSON, the rest (NaN, undefined) as they print. */
const shown = (v: unknown) => (typeof v === 'string' || (v && typeof v === 'object') ? JSON.stringify(v) : String(v));

for (const [rule, cases] of Object.entries(PRICES)) {
  for (const [input, hint, expected] of cases) {
    const withHint = hint === undefined ? '' : ` with hint ${hint}`;
    test(`parsePrice: ${rule}: ${shown(input)}${withHint}`, (t) => {
      t.deepEqual(parsePrice(input, hint), expected);
    });
  }
}

/** [number as written, its value, the rule that decides it]. */
const NUMBERS: [text: string, expected: number | null, rule: string][] = [
  ['1.299', 1299, 'one separator + exactly 3 digits: grouping'],
  ['1,299', 1299, 'one separator + exactly 3 digits: grouping'],
  ['0.125', 0.125, '...unless the integer part is 0'],
  ['1.5', 1.5, '1-2 digits: decimal'],
  ['29,9', 29.9, '1-2 digits: decimal'],
  ['12.5000', 12.5, '4+ digits: decimal'],
  ['1.299.000', 1299000, 'repeated: grouping'],
  ['1,299,000', 1299000, 'repeated: grouping'],
  ['1.299,999', 1299.999, 'both: the last one is decimal'],
  ['1,299.999', 1299.999, 'both: the last one is decimal'],
  ['1\u00a0299,5', 1299.5, 'a no-break space groups'],
  ['abc', null, 'no number'],
];

for (const [text, expected, rule] of NUMBERS) {
  test(`decimal separator rules: ${JSON.stringify(text)} is ${expected} (${rule})`, (t) => {
    t.is(parseLocaleNumber(text), expected);
  });
}

const acme: Entity = { id: 'acme', kind: 'brand', name: 'Acme', aliases: ['Acme Labs'], domains: ['acme.com'] };
const globex: Entity = { id: 'globex', kind: 'competitor', name: 'Globex', aliases: [], domains: ['globex.com'] };
const skoda: Entity = { id: 'skoda', kind: 'competitor', name: 'Škoda', aliases: [], domains: ['skoda-auto.com'] };
const compiled = compileEntities([acme, globex, skoda]);

test('parseCards: fields, positions and raw', (t) => {
  const p1: ProductInput = {
    position: 3,
    title: 'Acme Widget Pro',
    brand: 'Acme',
    price: '$1,299.99',
    currency: null,
    image_url: 'https://img.example.com/1.jpg',
    merchant_url: 'https://www.BestBuy.com/site/123?utm_source=x',
    rating: 4.6,
    review_count: 120,
    extra: { sponsored: true },
  };
  const p2: ProductInput = {
    title: 'Generic kettle',
    price: 19.5,
    currency: 'usd',
    rating: '4,2',
    review_count: '1.2k',
  };
  const cards = parseCards([p1, p2], compiled, acme, [globex, skoda]);
  t.deepEqual(cards, [
    {
      position: 3,
      product_title: 'Acme Widget Pro',
      product_brand: 'Acme',
      price_amount: 1299.99,
      price_currency: 'USD',
      image_url: 'https://img.example.com/1.jpg',
      merchant_url: 'https://www.BestBuy.com/site/123?utm_source=x',
      merchant_domain: 'bestbuy.com',
      rating: 4.6,
      review_count: 120,
      raw: p1,
      matched_brand_id: 'acme',
      matched_brand_role: 'own',
    },
    {
      position: 2,
      product_title: 'Generic kettle',
      product_brand: '',
      price_amount: 19.5,
      price_currency: 'USD',
      image_url: null,
      merchant_url: null,
      merchant_domain: null,
      rating: 4.2,
      review_count: 1200,
      raw: p2,
      matched_brand_id: null,
      matched_brand_role: 'other',
    },
  ]);
  t.is(cards[0].raw, p1);
});

test('parseCards: match by brand, then title, then merchant domain', (t) => {
  const cards = parseCards(
    [
      { title: 'Acme-compatible charger', brand: 'Globex' }, // brand field first: Globex
      { title: 'Charger by ACME LABS', brand: 'NoName' }, // title: Acme
      { title: 'Kettle', brand: '', merchant_url: 'https://shop.globex.com/k' }, // merchant sub-domain: Globex
      { title: 'Kettle', merchant_url: 'https://notacme.com/k' }, // substring trap: nobody
      { title: 'ŠKODA Octavia floor mats' }, // non-ASCII title: Škoda
      { title: 'Acmeville souvenir mug', merchant_url: 'https://acme.com.evil.net/x' }, // no word match, no domain
      { title: 'Globex vs Acme bundle' }, // leftmost match in the title
    ],
    compiled,
  );
  t.deepEqual(
    cards.map((c) => [c.position, c.matched_brand_id, c.matched_brand_role]),
    [
      [1, 'globex', 'competitor'],
      [2, 'acme', 'own'],
      [3, 'globex', 'competitor'],
      [4, null, 'other'],
      [5, 'skoda', 'competitor'],
      [6, null, 'other'],
      [7, 'globex', 'competitor'],
    ],
  );
  t.is(cards[2].merchant_domain, 'shop.globex.com');
});

test('parseCards: works from the entities alone and tolerates odd values', (t) => {
  const cards = parseCards(
    [{ position: 0, title: 'Acme mug', rating: 'n/a', review_count: '(1,234)', price: 'call us', image_url: '  ' }],
    null,
    acme,
    [globex],
  );
  t.deepEqual(
    cards.map((c) => [
      c.position,
      c.matched_brand_id,
      c.rating,
      c.review_count,
      c.price_amount,
      c.price_currency,
      c.image_url,
    ]),
    [[1, 'acme', null, 1234, null, null, null]],
  );
  t.deepEqual(parseCards([], compiled), []);
});
