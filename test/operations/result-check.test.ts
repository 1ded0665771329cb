// Results are checked against their documented schema when VALIDATE_RESULTS asks for it: a drift
// fails with a message naming the operation and the field; off (production's default) nothing changes.
// test-process: shared
import test from 'ava';
import { z } from 'zod';
import pino from 'pino';
import { operation, type Operation } from '../../src/operations/registry.ts';
import type { Identity } from '../../src/tenancy/keys.ts';
import { checkResult } from '../../src/operations/result-check.ts';
import { runOperation } from '../../src/operations/run.ts';
import { loadConfig } from '../../src/config.ts';
import type { Stores } from '../../src/stores/index.ts';
import { ApiError } from '../../src/errors.ts';

const Item = z.object({ id: z.string(), at: z.string(), score: z.number().nullable() });
const Result = z.object({ items: z.array(Item) });

/** An operation that returns whatever the test gives it. */
function returning(body: unknown): Operation {
  return operation({
    name: 'things',
    method: 'GET',
    params: z.object({}),
    result: Result,
    description: 'Things.',
    run: async () => body as z.input<typeof Result>,
  }) as Operation;
}

const good = {
  items: [
    { id: 'a', at: '2026-01-01T00:00:00.000Z', score: 1 },
    { id: 'b', at: 'x', score: null },
  ],
};

test('a result as documented passes; a Date is checked as the string a client receives', (t) => {
  t.notThrows(() => checkResult(returning(good), good));
  t.notThrows(() => checkResult(returning(good), { items: [{ id: 'a', at: new Date(0), score: 0 }] }));
});

const drifts: [string, unknown, string][] = [
  ['a field of the wrong type', { items: [good.items[0], { id: 'b', at: 'x', score: '3' }] }, 'items[1].score'],
  ['a missing field', { items: [{ id: 'a', score: 1 }] }, 'items[0].at'],
  ['a bare array for an object', good.items, '(result)'],
  ['nothing at all', undefined, '(result)'],
];
for (const [label, body, field] of drifts) {
  test(`a drift names the operation and the field: ${label}`, (t) => {
    const err = t.throws(() => checkResult(returning(body), body), { instanceOf: ApiError });
    t.is(err!.status, 500);
    t.regex(err!.message, /^Operation things returned a result its schema does not allow: /);
    t.true(err!.message.includes(`: ${field}: `), err!.message);
  });
}

const identity: Identity = { keyId: 'k', userId: 'u', email: 'a@example.test', organizationId: null };
const deps = (env: Record<string, string>) => ({
  config: loadConfig(env),
  stores: {} as Stores,
  log: pino({ level: 'silent' }),
});
const drifted = { items: [{ id: 1 }] };

test('runOperation checks results only when VALIDATE_RESULTS=1', async (t) => {
  const op = returning(drifted);
  t.deepEqual(await runOperation(deps({}), op, {}, identity), drifted);
  const err = await t.throwsAsync(runOperation(deps({ VALIDATE_RESULTS: '1' }), op, {}, identity));
  t.regex(err!.message, /^Operation things .*: items\[0\]\.id: /);
  t.deepEqual(await runOperation(deps({ VALIDATE_RESULTS: '1' }), returning(good), {}, identity), good);
});
