// The visit buffer: batches by size and by time, serial inserts, retry after a failure, close.
// test-process: shared
import test from 'ava';
import { createVisitBuffer, type VisitRow } from '../../src/traffic/buffer.ts';

const row = (i: number): VisitRow => ({
  brand_id: '00000000-0000-4000-8000-000000000001',
  ts: '2026-03-01 10:00:00.000',
  day: '2026-03-01',
  platform: 'chatgpt',
  path: `/p${i}`,
  country: 'XX',
  referrer_host: 'chatgpt.com',
});

function fakeClickHouse(opts: { failTimes?: number; delayMs?: number } = {}) {
  const inserts: number[] = [];
  let failures = opts.failTimes ?? 0;
  let active = 0;
  let overlapped = false;
  return {
    inserts,
    get overlapped() {
      return overlapped;
    },
    async insert(_table: string, values: readonly object[]) {
      active++;
      if (active > 1) overlapped = true;
      await new Promise((r) => setTimeout(r, opts.delayMs ?? 1));
      active--;
      if (failures > 0) {
        failures--;
        throw new Error('ClickHouse down');
      }
      inserts.push(values.length);
    },
  };
}

test('a full batch is written at once, the rest on flush, never two inserts at a time', async (t) => {
  const ch = fakeClickHouse({ delayMs: 5 });
  const buffer = createVisitBuffer(ch, { maxRows: 100, intervalMs: 60_000 });
  for (let i = 0; i < 250; i++) buffer.add(row(i));
  await buffer.flush();
  t.deepEqual(ch.inserts, [100, 100, 50]);
  t.false(ch.overlapped);
  t.is(buffer.pending, 0);
  await buffer.close();
});

test('a partial batch is written by the timer', async (t) => {
  const ch = fakeClickHouse();
  const buffer = createVisitBuffer(ch, { maxRows: 100, intervalMs: 50 });
  buffer.add(row(1));
  buffer.add(row(2));
  // Nothing but the timer writes a batch of 2 under maxRows 100: wait for it, however late it fires.
  while (!ch.inserts.length) await new Promise((r) => setTimeout(r, 20));
  t.deepEqual(ch.inserts, [2]);
  await buffer.close();
});

test('a failed insert keeps its visits for the next round, within maxPending', async (t) => {
  const ch = fakeClickHouse({ failTimes: 1 });
  const buffer = createVisitBuffer(ch, { maxRows: 10, intervalMs: 60_000, maxPending: 5 });
  for (let i = 0; i < 8; i++) buffer.add(row(i));
  await t.throwsAsync(buffer.flush(), { message: 'ClickHouse down' });
  t.is(buffer.pending, 5, 'the oldest beyond maxPending were dropped');
  await buffer.flush();
  t.deepEqual(ch.inserts, [5]);
  await buffer.close();
});

test('close writes what is left, and later visits are dropped', async (t) => {
  const ch = fakeClickHouse();
  const buffer = createVisitBuffer(ch, { maxRows: 100, intervalMs: 60_000 });
  buffer.add(row(1));
  await buffer.close();
  t.deepEqual(ch.inserts, [1]);
  buffer.add(row(2));
  await buffer.flush();
  t.deepEqual(ch.inserts, [1]);
});

test('while an insert hangs, the buffer holds at most maxPending visits', async (t) => {
  let release!: () => void;
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const inserts: number[] = [];
  const buffer = createVisitBuffer(
    {
      insert: async (_t, v) => {
        await gate;
        inserts.push(v.length);
      },
    },
    { maxRows: 10, intervalMs: 60_000, maxPending: 25 },
  );
  for (let i = 0; i < 100; i++) buffer.add(row(i));
  t.true(buffer.pending <= 25, `${buffer.pending} pending`);
  release();
  await buffer.close();
  t.is(
    inserts.reduce((a, b) => a + b, 0),
    25,
    'the 25 held are written; the other 75 were refused',
  );
});
