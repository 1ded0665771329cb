// Shopping answers: product cards from an answer's products[] (docs/api.md section 2, last
// paragraph; docs/analysis.md "Shopping cards"). Pure: no I/O.

import type { CardFigures, MatchedRole, ProductInput } from '../types.ts';
import type { Entity } from '../../tenancy/tracked.ts';
import { compileEntities, ownersOfDomain, scanMentions, type CompiledEntities } from './analyze.ts';
import { domainOf } from './urls.ts';
import { fitsColumn, UINT16, UINT32, within } from '../../column-numbers.ts';

/** A card's position and review count as shopping_cards holds them (UInt16 from 1, UInt32). */
const POSITION = within(UINT16, 1);
const REVIEW_COUNT = UINT32;

export interface ParsedPrice {
  amount: number | null;
  currency: string | null;
}

// Symbols, longest first so that "US$" is read before "$" and "zł" before anything shorter.
// A symbol shared by several currencies maps to its most common one; the hint decides otherwise
// (see AMBIGUOUS below).
const SYMBOLS: readonly [string, string][] = (
  [
    ['US$', 'USD'],
    ['CA$', 'CAD'],
    ['C$', 'CAD'],
    ['AU$', 'AUD'],
    ['A$', 'AUD'],
    ['NZ$', 'NZD'],
    ['HK$', 'HKD'],
    ['S$', 'SGD'],
    ['R$', 'BRL'],
    ['MX$', 'MXN'],
    ['CN¥', 'CNY'],
    ['JP¥', 'JPY'],
    ['zł', 'PLN'],
    ['Kč', 'CZK'],
    ['Ft', 'HUF'],
    ['lei', 'RON'],
    ['Rs.', 'INR'],
    ['Rs', 'INR'],
    ['kr', 'SEK'],
    ['CHF', 'CHF'],
    ['$', 'USD'],
    ['€', 'EUR'],
    ['£', 'GBP'],
    ['₺', 'TRY'],
    ['¥', 'JPY'],
    ['￥', 'JPY'],
    ['元', 'CNY'],
    ['₹', 'INR'],
    ['₽', 'RUB'],
    ['₴', 'UAH'],
    ['₩', 'KRW'],
    ['₪', 'ILS'],
    ['₫', 'VND'],
    ['฿', 'THB'],
    ['₱', 'PHP'],
    ['₦', 'NGN'],
    ['₡', 'CRC'],
    ['₲', 'PYG'],
    ['₵', 'GHS'],
    ['₸', 'KZT'],
    ['₼', 'AZN'],
    ['₾', 'GEL'],
  ] as [string, string][]
).sort((a, b) => b[0].length - a[0].length);

// Symbols that start with a letter (zł, kr, Ft, Rs, lei, R$, US$) must stand alone, not inside a word.
const STANDALONE: ReadonlyMap<string, RegExp> = new Map(
  SYMBOLS.filter(([sym]) => /^\p{L}/u.test(sym)).map(([sym]) => [
    sym,
    new RegExp(`(?<!\\p{L})${sym.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?!\\p{L})`, 'u'),
  ]),
);

// A bare symbol that several currencies use: when the hint is one of them, the hint wins.
const AMBIGUOUS: Record<string, readonly string[]> = {
  $: ['USD', 'CAD', 'AUD', 'NZD', 'HKD', 'SGD', 'MXN', 'ARS', 'CLP', 'COP', 'TWD'],
  '¥': ['JPY', 'CNY'],
  '￥': ['JPY', 'CNY'],
  kr: ['SEK', 'NOK', 'DKK', 'ISK'],
};

// ISO 4217 codes recognised inside a price string ("USD 12.50", "12,50 eur"). A hint may be any
// three-letter code.
const ISO_CODES = new Set([
  'USD',
  'EUR',
  'GBP',
  'JPY',
  'CNY',
  'INR',
  'TRY',
  'PLN',
  'CHF',
  'CAD',
  'AUD',
  'NZD',
  'HKD',
  'SGD',
  'SEK',
  'NOK',
  'DKK',
  'ISK',
  'CZK',
  'HUF',
  'RON',
  'BGN',
  'RUB',
  'UAH',
  'BRL',
  'MXN',
  'ARS',
  'CLP',
  'COP',
  'PEN',
  'ZAR',
  'KRW',
  'TWD',
  'THB',
  'VND',
  'IDR',
  'MYR',
  'PHP',
  'ILS',
  'AED',
  'SAR',
  'QAR',
  'EGP',
  'NGN',
  'KES',
  'PKR',
  'BDT',
]);
const ISO_IN_TEXT = /(?<![A-Za-z])([A-Za-z]{3})(?![A-Za-z])/g;
// Codes that are also English words count only in upper case ("12 TRY", not "try it for $5").
const WORD_CODES = new Set(['TRY', 'PEN']);

function normaliseHint(hint: string | null | undefined): string | null {
  if (typeof hint !== 'string') return null;
  const h = hint.trim();
  if (/^[A-Za-z]{3}$/.test(h)) return h.toUpperCase();
  for (const [sym, code] of SYMBOLS) if (h === sym) return code;
  return null;
}

function currencyOf(s: string, hint: string | null): string | null {
  ISO_IN_TEXT.lastIndex = 0;
  for (let m = ISO_IN_TEXT.exec(s); m; m = ISO_IN_TEXT.exec(s)) {
    const code = m[1].toUpperCase();
    if (ISO_CODES.has(code) && (code === m[1] || !WORD_CODES.has(code))) return code;
  }
  for (const [sym, code] of SYMBOLS) {
    if (!s.includes(sym)) continue;
    const alone = STANDALONE.get(sym);
    if (alone && !alone.test(s)) continue;
    const family = AMBIGUOUS[sym];
    if (family && hint && family.includes(hint)) return hint;
    return code;
  }
  return hint;
}

// The first number in the string: digits with grouping characters (. , space, NBSP, thin space, ').
const NUMBER_RUN = /\d(?:[\d.,'’\s\u00a0\u202f]*\d)?/;

/**
 * Reads a number written with either decimal convention. Rules (docs/analysis.md):
 * - spaces and apostrophes are grouping;
 * - with both `.` and `,`, the last one is the decimal separator;
 * - with one of them used several times, it is grouping ("1.299.000");
 * - used once: followed by exactly 3 digits it is grouping ("1.299", "1,299"), unless the
 *   integer part is 0 ("0.125"); followed by 1-2 or 4+ digits it is the decimal separator.
 */
export function parseLocaleNumber(s: string): number | null {
  const run = NUMBER_RUN.exec(s);
  if (!run) return null;
  const t = run[0].replace(/[\s\u00a0\u202f'’]/g, '');
  const lastDot = t.lastIndexOf('.');
  const lastComma = t.lastIndexOf(',');
  let decimal: string | null = null;
  if (lastDot >= 0 && lastComma >= 0) {
    decimal = lastDot > lastComma ? '.' : ',';
  } else if (lastDot >= 0 || lastComma >= 0) {
    const sep = lastDot >= 0 ? '.' : ',';
    const at = Math.max(lastDot, lastComma);
    const once = t.indexOf(sep) === at;
    const after = t.length - at - 1;
    const intPart = t.slice(0, at);
    if (once && (after !== 3 || /^0*$/.test(intPart))) decimal = sep;
  }
  let digits: string;
  if (decimal) {
    const at = t.lastIndexOf(decimal);
    digits = `${t.slice(0, at).replace(/[.,]/g, '')}.${t.slice(at + 1).replace(/[.,]/g, '')}`;
  } else {
    digits = t.replace(/[.,]/g, '');
  }
  const v = Number(digits);
  return Number.isFinite(v) ? v : null;
}

/**
 * A price and its currency from a number or a string such as `$1,299.99`, `€29,99`, `29,99 €`,
 * `₺2.699,99`, `£1.299`, `1 299,00 zł`, `USD 12.50` or `12.50`. The currency comes from an ISO
 * code in the string, else a symbol, else `currencyHint`; amount and currency are null when no
 * amount can be read.
 */
export function parsePrice(value: unknown, currencyHint?: string | null): ParsedPrice {
  const hint = normaliseHint(currencyHint);
  if (typeof value === 'number') {
    return Number.isFinite(value) ? { amount: value, currency: hint } : { amount: null, currency: null };
  }
  if (typeof value !== 'string') return { amount: null, currency: null };
  const amount = parseLocaleNumber(value);
  if (amount === null) return { amount: null, currency: null };
  return { amount, currency: currencyOf(value, hint) };
}

function toNumber(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  return parseLocaleNumber(v);
}

/** "1,234", "1.2k", "(120)", 120 -> an integer count, or null (also when its column cannot hold it). */
function toCount(v: unknown): number | null {
  let n = toNumber(v);
  if (n === null) return null;
  if (typeof v === 'string') {
    const suffix = /\d\s*([kKmM])\b/.exec(v);
    if (suffix) n *= suffix[1].toLowerCase() === 'k' ? 1_000 : 1_000_000;
  }
  const count = Math.round(n);
  return fitsColumn(count, REVIEW_COUNT) ? count : null;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v.trim() : '';
}

function strOrNull(v: unknown): string | null {
  const s = str(v);
  return s === '' ? null : s;
}

/** Which entity a card is about: product brand first, then the title, then the merchant domain. */
function matchCard(compiled: CompiledEntities, brand: string, title: string, merchantDomain: string | null): number {
  for (const field of [brand, title]) {
    if (field === '') continue;
    const { leftmost } = scanMentions(compiled, field);
    if (leftmost >= 0) return leftmost;
  }
  if (merchantDomain) {
    const owners = ownersOfDomain(compiled, merchantDomain);
    if (owners.length) return owners[0];
  }
  return -1;
}

/**
 * Product cards of a shopping answer. `compiled` is the brand's compiled entities; callers that
 * only hold the entities may pass null with the brand and its competitors instead.
 */
export function parseCards(
  products: readonly ProductInput[],
  compiled: CompiledEntities | null,
  brandEntity?: Entity,
  competitors: readonly Entity[] = [],
): CardFigures[] {
  const c = compiled ?? compileEntities(brandEntity ? [brandEntity, ...competitors] : [...competitors]);
  const cards: CardFigures[] = [];
  (products ?? []).forEach((p, i) => {
    if (!p || typeof p !== 'object') return;
    const given = typeof p.position === 'number' ? Math.trunc(p.position) : Number.NaN;
    const pos = fitsColumn(given, POSITION) ? given : i + 1;
    const title = str(p.title);
    const brand = str(p.brand);
    const merchantUrl = strOrNull(p.merchant_url);
    const merchantDomain = merchantUrl ? domainOf(merchantUrl) || null : null;
    const price = parsePrice(p.price, p.currency);
    const owner = matchCard(c, brand, title, merchantDomain);
    const entity = owner >= 0 ? c.entities[owner] : null;
    const role: MatchedRole = !entity ? 'other' : entity.kind === 'brand' ? 'own' : 'competitor';
    cards.push({
      position: pos,
      product_title: title,
      product_brand: brand,
      price_amount: price.amount,
      price_currency: price.currency,
      image_url: strOrNull(p.image_url),
      merchant_url: merchantUrl,
      merchant_domain: merchantDomain,
      rating: toNumber(p.rating),
      review_count: toCount(p.review_count),
      raw: p as Record<string, unknown>,
      matched_brand_id: entity ? entity.id : null,
      matched_brand_role: role,
    });
  });
  return cards;
}
