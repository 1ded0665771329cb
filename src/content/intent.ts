// The search intent of a prompt, from its words (docs/content.md): the first rule that matches wins,
// in the order transactional, navigational, commercial, informational.
import { words } from './keywords.ts';

export const INTENTS = ['transactional', 'navigational', 'commercial', 'informational'] as const;
export type Intent = (typeof INTENTS)[number];

const TRANSACTIONAL = new Set([
  'buy',
  'order',
  'purchase',
  'price',
  'prices',
  'pricing',
  'cost',
  'costs',
  'cheap',
  'cheapest',
  'deal',
  'deals',
  'discount',
  'coupon',
  'coupons',
  'subscribe',
  'subscription',
  'download',
  'hire',
  'book',
  'quote',
  'shop',
  'sale',
  'trial',
  'signup',
]);
const NAVIGATIONAL = new Set([
  'login',
  'log',
  'signin',
  'website',
  'site',
  'homepage',
  'official',
  'contact',
  'support',
  'account',
  'dashboard',
  'app',
]);
const COMMERCIAL = new Set([
  'best',
  'top',
  'vs',
  'versus',
  'compare',
  'comparison',
  'review',
  'reviews',
  'alternative',
  'alternatives',
  'recommend',
  'recommended',
  'recommendation',
  'rated',
  'ranking',
  'which',
  'worth',
  'better',
  'options',
]);

/**
 * `entityNames`: the brand's and competitors' names; a prompt naming one with a navigational word
 * ("acme login") or consisting only of that name is navigational.
 */
export function classifyIntent(text: string, entityNames: string[] = []): Intent {
  const ws = words(text);
  const joined = ` ${ws.join(' ')} `;
  const names = entityNames.map((n) => words(n).join(' ')).filter(Boolean);
  const namesEntity = names.some((n) => joined.includes(` ${n} `));
  if (ws.some((w) => TRANSACTIONAL.has(w))) return 'transactional';
  if (namesEntity && (ws.some((w) => NAVIGATIONAL.has(w)) || names.includes(ws.join(' ')))) return 'navigational';
  if (ws.some((w) => COMMERCIAL.has(w)) || namesEntity) return 'commercial';
  return 'informational';
}
