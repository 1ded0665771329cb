// BatchBuilder analyses answers as they are added when their prompt is known and keeps the others
// for finish(): whatever the order of analysis, the batch must be the one the answers' indexes say
// (the last answer of an id wins, counts and rejections in index order).
// test-process: shared
import test from 'ava';
import { BatchBuilder, prepareBatch, type Lookups, type PromptInfo } from '../../src/tracking/ingest/batch.ts';
import { compileEntities, type CompiledEntities } from '../../src/tracking/analysis/analyze.ts';
import type { ValidAnswer } from '../../src/tracking/ingest/answer-schema.ts';

const BRAND = '11111111-1111-4111-8111-111111111111';
const ORG = '22222222-2222-4222-8222-222222222222';
const KNOWN = '33333333-3333-4333-8333-333333333333'; // looked up before the batch
const LATER = '44444444-4444-4444-8444-444444444444'; // found when finish() looks it up
const BOGUS = '55555555-5555-4555-8555-555555555555'; // no such prompt
const X = '66666666-6666-4666-8666-666666666666';
const Z = '77777777-7777-4777-8777-777777777777';

class FakeLookups implements Lookups {
  prompts = new Map<string, PromptInfo | null>([[KNOWN, { brandId: BRAND, organizationId: ORG, generation: 0 }]]);
  lookedUp: string[][] = [];
  private brand: CompiledEntities = compileEntities([
    { id: BRAND, kind: 'brand', name: 'Acme', aliases: [], domains: ['acme.example'] },
    { id: '88888888-8888-4888-8888-888888888888', kind: 'competitor', name: 'Globex', aliases: [], domains: [] },
  ] as any);

  async resolvePrompts(ids: string[]) {
    this.lookedUp.push(ids);
    for (const id of ids)
      if (!this.prompts.has(id))
        this.prompts.set(id, id === LATER ? { brandId: BRAND, organizationId: ORG, generation: 0 } : null);
  }
  prompt(id: string) {
    return this.prompts.get(id);
  }
  async compiled() {
    return this.brand;
  }
  compiledNow() {
    return this.brand;
  }
}

const answer = (prompt_id: string, text: string, id?: string, mode = 'standard'): ValidAnswer =>
  ({
    ...(id ? { id } : {}),
    prompt_id,
    platform: 'chatgpt',
    model: 'gpt-4o',
    region: 'US',
    mode,
    collected_at: `2026-11-01T06:00:0${text.length % 10}Z`,
    text,
    citations: [{ url: `https://acme.example/${text.length}`, title: text }],
    products:
      mode === 'shopping' ? [{ title: `Acme ${text}`, price: '$10', merchant_url: 'https://shop.example/p' }] : [],
  }) as any;

const lines = (b: Uint8Array) => Buffer.from(b).toString().split('\n').filter(Boolean).sort();

test('answers analysed out of order: the last answer of each id wins, and indexes keep the order', async (t) => {
  const batch = [
    answer(KNOWN, 'Acme first', X), // 0: written at once, then replaced by 1
    answer(LATER, 'Globex then Acme, second', X), // 1: waits for its prompt; the last answer of X
    answer(KNOWN, 'no id here'), // 2: derived id
    answer(BOGUS, 'unknown prompt'), // 3: rejected in finish()
    answer(KNOWN, 'Acme shop', Z, 'shopping'), // 4: written at once, replaced by 5 (a card dropped too)
    answer(KNOWN, 'Acme shop again', Z, 'shopping'), // 5
  ];
  const lookups = new FakeLookups();
  const builder = new BatchBuilder(lookups);
  batch.forEach((a, i) => {
    builder.add(a, i);
  });
  const got = await builder.finish();
  t.deepEqual(lookups.lookedUp, [[LATER, BOGUS]], 'only the prompts not known yet are looked up, once');

  // The same batch as three answers alone: what must be stored.
  const expected = await prepareBatch(new FakeLookups(), [batch[1], batch[2], batch[5]]);
  t.deepEqual(lines(got.wanted.wide as Uint8Array), lines(expected.wanted.wide as Uint8Array));
  t.deepEqual(lines(got.wanted.shopping_cards as Uint8Array), lines(expected.wanted.shopping_cards as Uint8Array));
  t.is(lines(got.wanted.shopping_cards as Uint8Array).length, 1);
  t.deepEqual(got.order, [X, X, expected.order[1], Z, Z]);
  t.deepEqual(got.rejected, [{ index: 3, error: `prompt_id: unknown prompt ${BOGUS}` }]);
  t.deepEqual(got.explicitIds, [X, Z, Z, X]);
  t.deepEqual(got.brands, [BRAND]);
});

test('an earlier answer that waited for its prompt does not replace a later one of its id', async (t) => {
  const lookups = new FakeLookups();
  const builder = new BatchBuilder(lookups);
  const early = answer(LATER, 'Acme early', X);
  const late = answer(KNOWN, 'Globex late', X);
  builder.add(early, 0);
  builder.add(late, 1);
  const got = await builder.finish();
  const expected = await prepareBatch(new FakeLookups(), [late]);
  t.deepEqual(lines(got.wanted.wide as Uint8Array), lines(expected.wanted.wide as Uint8Array));
  t.deepEqual(got.order, [X, X]);
});
