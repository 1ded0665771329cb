// test-process: shared
import test from 'ava';
import { z } from 'zod';
import { brandId, dateRange, limit, oneOf, commaList, optionalBool } from '../../src/operations/params.ts';
import { validationMessage } from '../../src/errors.ts';

const schema = z.object({
  brand_id: brandId,
  ...dateRange,
  limit: limit(1, 200, 50),
  granularity: oneOf('granularity', ['day', 'week']).default('day'),
  model: commaList('model'),
  is_active: optionalBool('is_active'),
});
const B = '7b3c1a52-8a0e-4f5e-9c1f-1d2e3f405162';
const parse = (q: Record<string, unknown>) => {
  const r = schema.safeParse(q);
  return r.success ? r.data : validationMessage(r.error.issues);
};

test('brand_id: missing and malformed are named', (t) => {
  t.is(parse({}), 'brand_id is required');
  t.is(parse({ brand_id: '' }), 'brand_id is required');
  t.is(parse({ brand_id: 'acme' }), 'brand_id must be a UUID');
});

test('limit is clamped into its range, defaulted when absent, refused when not an integer', (t) => {
  t.is((parse({ brand_id: B, limit: '0' }) as any).limit, 1);
  t.is((parse({ brand_id: B, limit: '-3' }) as any).limit, 1);
  t.is((parse({ brand_id: B, limit: '100000' }) as any).limit, 200);
  t.is((parse({ brand_id: B, limit: '17' }) as any).limit, 17);
  t.is((parse({ brand_id: B }) as any).limit, 50);
  t.is(parse({ brand_id: B, limit: 'ten' }), 'limit must be an integer');
  t.is(parse({ brand_id: B, limit: '2.5' }), 'limit must be an integer');
});

test('dates: a bare date_to covers its whole UTC day; timestamps keep their offset; bad dates are refused', (t) => {
  const r = parse({ brand_id: B, date_from: '2026-11-01', date_to: '2026-11-03' }) as any;
  t.is(r.date_from.toISOString(), '2026-11-01T00:00:00.000Z');
  t.is(r.date_to.toISOString(), '2026-11-03T23:59:59.999Z');
  const s = parse({ brand_id: B, date_from: '2026-11-01T10:30:00+02:00', date_to: '2026-11-02T00:00:00Z' }) as any;
  t.is(s.date_from.toISOString(), '2026-11-01T08:30:00.000Z');
  t.is(s.date_to.toISOString(), '2026-11-02T00:00:00.000Z');
  for (const bad of ['2026-02-30', '2026-13-01', 'yesterday', '11/01/2026', '2026-11-01T25:00:00Z']) {
    t.is(parse({ brand_id: B, date_from: bad }), 'date_from must be a date (YYYY-MM-DD) or an ISO 8601 timestamp', bad);
  }
});

test('enums, lists and booleans', (t) => {
  t.is(parse({ brand_id: B, granularity: 'month' }), 'granularity must be one of: day, week');
  t.is((parse({ brand_id: B }) as any).granularity, 'day');
  t.deepEqual((parse({ brand_id: B, model: 'gpt-4o, sonar,,' }) as any).model, ['gpt-4o', 'sonar']);
  t.is((parse({ brand_id: B, is_active: 'false' }) as any).is_active, false);
  t.is(parse({ brand_id: B, is_active: 'maybe' }), 'is_active must be true or false');
});
