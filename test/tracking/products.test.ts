import test from 'ava';
import { compileEntities } from '../../src/tracking/analyze.ts';
import { parseCards, parseLocaleNumber, parsePrice } from '../../src/tracking/products.ts';
import type { Entity, ProductInput } from '../../src/tracking/types.ts';

test('parsePrice: symbols, codes and both decimal conventions', (t) => {
  t.deepEqual(parsePrice('$1,299.99'), { amount: 1299.99, currency: 'USD' });
  t.deepEqual(parsePrice('€29,99'), { amount: 29.99, currency: 'EUR' });
  t.deepEqual(parsePrice('29,99 €'), { amount: 29.99, currency: 'EUR' });
  t.deepEqual(parsePrice('₺2.699,99'), { amount: 2699.99, currency: 'TRY' });
  t.deepEqual(parsePrice('£1.299'), { amount: 1299, currency: 'GBP' });
  t.deepEqual(parsePrice('1 299,00 zł'), { amount: 1299, currency: 'PLN' });
  t.deepEqual(parsePrice('USD 12.50'), { amount: 12.5, currency: 'USD' });
  t.deepEqual(parsePrice('12,50 eur'), { amount: 12.5, currency: 'EUR' });
  t.deepEqual(parsePrice('¥12,800'), { amount: 12800, currency: 'JPY' });
  t.deepEqual(parsePrice('₹1,49,999'), { amount: 149999, currency: 'INR' });
  t.deepEqual(parsePrice('CHF 1\'299.50'), { amount: 1299.5, currency: 'CHF' });
  t.deepEqual(parsePrice('US$ 5'), { amount: 5, currency: 'USD' });
  t.deepEqual(parsePrice('R$ 49,90'), { amount: 49.9, currency: 'BRL' });
  t.deepEqual(parsePrice('1.299.000 ₫'), { amount: 1299000, currency: 'VND' });
  t.deepEqual(parsePrice('$10 - $20'), { amount: 10, currency: 'USD' });
  t.deepEqual(parsePrice('12 TRY'), { amount: 12, currency: 'TRY' });
  t.deepEqual(parsePrice('$12 pen set, try it'), { amount: 12, currency: 'USD' });
  t.deepEqual(parsePrice('199 kr'), { amount: 199, currency: 'SEK' });
  t.deepEqual(parsePrice('Kr 199'), { amount: 199, currency: null });
});

test('parsePrice: plain numbers and strings take the hint', (t) => {
  t.deepEqual(parsePrice('12.50'), { amount: 12.5, currency: null });
  t.deepEqual(parsePrice('12.50', 'usd'), { amount: 12.5, currency: 'USD' });
  t.deepEqual(parsePrice(19.99, 'EUR'), { amount: 19.99, currency: 'EUR' });
  t.deepEqual(parsePrice(0), { amount: 0, currency: null });
  t.deepEqual(parsePrice(5, '€'), { amount: 5, currency: 'EUR' });
  // An ambiguous symbol follows the hint when the hint is one of its currencies...
  t.deepEqual(parsePrice('$19.99', 'CAD'), { amount: 19.99, currency: 'CAD' });
  t.deepEqual(parsePrice('¥99', 'CNY'), { amount: 99, currency: 'CNY' });
  t.deepEqual(parsePrice('199 kr', 'NOK'), { amount: 199, currency: 'NOK' });
  // ...but what the string says wins over a hint that contradicts it.
  t.deepEqual(parsePrice('€5', 'USD'), { amount: 5, currency: 'EUR' });
  t.deepEqual(parsePrice('GBP 5', 'USD'), { amount: 5, currency: 'GBP' });
});

test('parsePrice: nothing readable gives nulls', (t) => {
  t.deepEqual(parsePrice(null), { amount: null, currency: null });
  t.deepEqual(parsePrice(undefined, 'USD'), { amount: null, currency: null });
  t.deepEqual(parsePrice(''), { amount: null, currency: null });
  t.deepEqual(parsePrice('Free'), { amount: null, currency: null });
  t.deepEqual(parsePrice('$'), { amount: null, currency: null });
  t.deepEqual(parsePrice(Number.NaN, 'USD'), { amount: null, currency: null });
  t.deepEqual(parsePrice({ amount: 5 }), { amount: null, currency: null });
});

test('decimal separator rules', (t) => {
  t.is(parseLocaleNumber('1.299'), 1299); // one separator + exactly 3 digits: grouping
  t.is(parseLocaleNumber('1,299'), 1299);
  t.is(parseLocaleNumber('0.125'), 0.125); // ...unless the integer part is 0
  t.is(parseLocaleNumber('1.5'), 1.5); // 1-2 digits: decimal
  t.is(parseLocaleNumber('29,9'), 29.9);
  t.is(parseLocaleNumber('12.5000'), 12.5); // 4+ digits: decimal
  t.is(parseLocaleNumber('1.299.000'), 1299000); // repeated: grouping
  t.is(parseLocaleNumber('1,299,000'), 1299000);
  t.is(parseLocaleNumber('1.299,999'), 1299.999); // both: the last one is decimal
  t.is(parseLocaleNumber('1,299.999'), 1299.999);
  t.is(parseLocaleNumber('1\u00a0299,5'), 1299.5);
  t.is(parseLocaleNumber('abc'), null);
});

const acme: Entity = { id: 'acme', kind: 'brand', name: 'Acme', aliases: ['Acme Labs'], domains: ['acme.com'] };
const globex: Entity = { id: 'globex', kind: 'competitor', name: 'Globex', aliases: [], domains: ['globex.com'] };
const skoda: Entity = { id: 'skoda', kind: 'competitor', name: 'Škoda', aliases: [], domains: ['skoda-auto.com'] };
const compiled = compileEntities([acme, globex, skoda]);

test('parseCards: fields, positions and raw', (t) => {
  const p1: ProductInput = {
    position: 3, title: 'Acme Widget Pro', brand: 'Acme', price: '$1,299.99', currency: null,
    image_url: 'https://img.example.com/1.jpg', merchant_url: 'https://www.BestBuy.com/site/123?utm_source=x',
    rating: 4.6, review_count: 120, extra: { sponsored: true },
  };
  const p2: ProductInput = { title: 'Generic kettle', price: 19.5, currency: 'usd', rating: '4,2', review_count: '1.2k' };
  const cards = parseCards([p1, p2], compiled, acme, [globex, skoda]);
  t.deepEqual(cards, [
    {
      position: 3, product_title: 'Acme Widget Pro', product_brand: 'Acme', price_amount: 1299.99, price_currency: 'USD',
      image_url: 'https://img.example.com/1.jpg', merchant_url: 'https://www.BestBuy.com/site/123?utm_source=x',
      merchant_domain: 'bestbuy.com', rating: 4.6, review_count: 120, raw: p1,
      matched_brand_id: 'acme', matched_brand_role: 'own',
    },
    {
      position: 2, product_title: 'Generic kettle', product_brand: '', price_amount: 19.5, price_currency: 'USD',
      image_url: null, merchant_url: null, merchant_domain: null, rating: 4.2, review_count: 1200, raw: p2,
      matched_brand_id: null, matched_brand_role: 'other',
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
  t.deepEqual(cards.map((c) => [c.position, c.matched_brand_id, c.matched_brand_role]), [
    [1, 'globex', 'competitor'],
    [2, 'acme', 'own'],
    [3, 'globex', 'competitor'],
    [4, null, 'other'],
    [5, 'skoda', 'competitor'],
    [6, null, 'other'],
    [7, 'globex', 'competitor'],
  ]);
  t.is(cards[2].merchant_domain, 'shop.globex.com');
});

test('parseCards: works from the entities alone and tolerates odd values', (t) => {
  const cards = parseCards(
    [{ position: 0, title: 'Acme mug', rating: 'n/a', review_count: '(1,234)', price: 'call us', image_url: '  ' }],
    null,
    acme,
    [globex],
  );
  t.deepEqual(cards.map((c) => [c.position, c.matched_brand_id, c.rating, c.review_count, c.price_amount, c.price_currency, c.image_url]), [
    [1, 'acme', null, 1234, null, null, null],
  ]);
  t.deepEqual(parseCards([], compiled), []);
});
