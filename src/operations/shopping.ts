// Shopping: product cards of shopping-mode answers, and one product's visibility.
import { z } from 'zod';
import { operation } from './registry.ts';
import { brandId, cursor, limit, optionalOneOf, optionalText, optionalUuid } from './params.ts';
import { ShoppingCards, ProductVisibility } from './analytics-schemas.ts';
import { productVisibility as productFigures, shoppingCards as cards } from '../analytics/shopping.ts';
import { PLATFORMS } from '../tenancy/tracked.ts';
import { badRequest, notFound } from '../errors.ts';

const PARAMS_REQUIRED = 'brand_id and product_title are required';
const PRODUCT_NOT_FOUND = 'Product not found';

export const shoppingCards = operation({
  name: 'shopping-cards',
  method: 'GET',
  tool: 'list_shopping_cards',
  metrics: true,
  params: z.object({
    brand_id: brandId,
    role: optionalOneOf('role', ['own', 'competitor', 'other']).describe('own: your products; competitor; other'),
    platform: optionalOneOf('platform', PLATFORMS),
    region: optionalText('region', 64).describe('Region code, e.g. US'),
    limit: limit(1, 200, 50).describe('1-200, default 50'),
    cursor: cursor(),
  }),
  result: ShoppingCards,
  description:
    "Product cards shown in shopping-mode AI answers for the brand's prompts, newest first, with price, " +
    "merchant, rating and whether the product is the brand's own, a competitor's or another maker's. Page with " +
    'cursor.',
  run: async (ctx, p) => {
    const brand = await ctx.brand(p.brand_id);
    const f = { brandId: brand.id, role: p.role, platform: p.platform, region: p.region };
    const page = { limit: p.limit, cursor: p.cursor };
    return ctx.cached(brand, ['shopping-cards', f, page], () => cards(ctx.stores.ch, f, page));
  },
});

export const productVisibility = operation({
  name: 'product-visibility',
  method: 'GET',
  tool: 'get_product_visibility',
  errors: [
    { status: 400, message: PARAMS_REQUIRED },
    { status: 404, message: PRODUCT_NOT_FOUND },
  ],
  params: z.object({
    brand_id: optionalUuid('brand_id'),
    product_title: optionalText('product_title', 1000).describe('Exact title as list_shopping_cards returns it'),
  }),
  result: ProductVisibility,
  description:
    'Where and how often one product appears in shopping answers: by platform, region and day, latest ' +
    'appearance, average rating, reviews and merchants. product_title must be exactly as list_shopping_cards ' +
    'returns it.',
  run: async (ctx, p) => {
    // docs/api.md section 25 names both parameters in one message.
    if (!p.brand_id || !p.product_title) throw badRequest(PARAMS_REQUIRED);
    const brand = await ctx.brand(p.brand_id);
    const title = p.product_title;
    const figures = await ctx.cached(brand, ['product-visibility', title], () =>
      productFigures(ctx.stores.ch, brand.id, title),
    );
    if (!figures) throw notFound(PRODUCT_NOT_FOUND);
    return figures;
  },
});
