// The fair line in front of ClickHouse (src/runtime/fair-queue.ts): lanes take turns, no more
// than `slots` tasks run at once, and a task whose caller has gone never runs.
// test-process: shared
import test from 'ava';
import { FairQueue } from '../../src/runtime/fair-queue.ts';
import { ClientGone } from '../../src/errors.ts';

/** A task that finishes when the test says so, recording when it started. */
function gate(order: string[], name: string) {
  let open!: () => void;
  const done = new Promise<void>((resolve) => {
    open = resolve;
  });
  return {
    task: async () => {
      order.push(name);
      await done;
      return name;
    },
    open: () => open(),
  };
}

test('lanes take turns: a lane with a backlog delays another lane by one task, not by its backlog', async (t) => {
  const q = new FairQueue(1);
  const order: string[] = [];
  const heavy = Array.from({ length: 5 }, (_, i) => gate(order, `heavy${i}`));
  const light = gate(order, 'light');
  const results = heavy.map((g) => q.run('heavy', g.task));
  const lightResult = q.run('light', light.task);
  t.deepEqual(order, ['heavy0']);
  heavy[0].open();
  await results[0];
  await new Promise(setImmediate);
  t.deepEqual(order, ['heavy0', 'light']);
  light.open();
  t.is(await lightResult, 'light');
  for (const g of heavy) g.open();
  t.deepEqual(await Promise.all(results), ['heavy0', 'heavy1', 'heavy2', 'heavy3', 'heavy4']);
  t.deepEqual(order, ['heavy0', 'light', 'heavy1', 'heavy2', 'heavy3', 'heavy4']);
});

test('no more tasks run at once than there are slots, and every task runs', async (t) => {
  const q = new FairQueue(2);
  let running = 0;
  let most = 0;
  const tasks = Array.from({ length: 30 }, (_, i) =>
    q.run(`lane${i % 3}`, async () => {
      running++;
      most = Math.max(most, running);
      await new Promise((r) => setTimeout(r, 1));
      running--;
      return i;
    }),
  );
  t.deepEqual(
    await Promise.all(tasks),
    Array.from({ length: 30 }, (_, i) => i),
  );
  t.is(most, 2);
  t.is(q.waiting, 0);
});

test('a task whose caller has gone when its turn comes is dropped unrun, with ClientGone', async (t) => {
  const q = new FairQueue(1);
  const order: string[] = [];
  const first = gate(order, 'first');
  const running = q.run('a', first.task);
  let left = false;
  const waiting = q.run(
    'b',
    async () => {
      order.push('never');
      return 'never';
    },
    () => left,
  );
  const after = q.run('c', async () => 'after');
  t.is(q.waiting, 2);
  left = true;
  first.open();
  await running;
  await t.throwsAsync(waiting, { instanceOf: ClientGone });
  // Its turn passes on: the next task runs.
  t.is(await after, 'after');
  t.deepEqual(order, ['first']);
  // Gone already with no line (0 slots): refused at once.
  await t.throwsAsync(
    new FairQueue(0).run(
      'b',
      async () => 'x',
      () => true,
    ),
    { instanceOf: ClientGone },
  );
});

test('a failing task frees its slot and fails only its own caller', async (t) => {
  const q = new FairQueue(1);
  const failing = q.run('a', async () => {
    throw new Error('boom');
  });
  const next = q.run('b', async () => 'fine');
  await t.throwsAsync(failing, { message: 'boom' });
  t.is(await next, 'fine');
});

test('0 slots: no line, every task runs at once', async (t) => {
  const q = new FairQueue(0);
  const order: string[] = [];
  const a = gate(order, 'a');
  const b = gate(order, 'b');
  const both = [q.run('x', a.task), q.run('x', b.task)];
  t.deepEqual(order, ['a', 'b']);
  a.open();
  b.open();
  t.deepEqual(await Promise.all(both), ['a', 'b']);
});

test('a lane held to its share leaves a slot free: another lane starts at once, behind nothing', async (t) => {
  const q = new FairQueue(2, 1);
  const order: string[] = [];
  const heavy = Array.from({ length: 3 }, (_, i) => gate(order, `heavy${i}`));
  const results = heavy.map((g) => q.run('heavy', g.task));
  // Two slots, but the heavy lane holds one: its second task waits though a slot is free.
  t.deepEqual(order, ['heavy0']);
  t.is(q.waiting, 2);
  const light = gate(order, 'light');
  const lightResult = q.run('light', light.task);
  t.deepEqual(order, ['heavy0', 'light']);
  light.open();
  t.is(await lightResult, 'light');
  // With the other lane gone, the heavy lane still runs one at a time, in order.
  heavy[0].open();
  await results[0];
  await new Promise(setImmediate);
  t.deepEqual(order, ['heavy0', 'light', 'heavy1']);
  heavy[1].open();
  heavy[2].open();
  t.deepEqual(await Promise.all(results), ['heavy0', 'heavy1', 'heavy2']);
});

test('each task is told how much else its lane has in hand as it starts', async (t) => {
  const q = new FairQueue(3, 2);
  const seen: [string, number][] = [];
  const gates: (() => void)[] = [];
  const task = (name: string) => (turn: { others: number }) => {
    seen.push([name, turn.others]);
    return new Promise<void>((resolve) => gates.push(resolve));
  };
  const runs = [q.run('busy', task('b0')), q.run('busy', task('b1')), q.run('busy', task('b2'))];
  runs.push(q.run('quiet', task('q0')));
  // b0 started alone; b1 beside b0 with b2 waiting behind it; q0 alone in its lane.
  t.deepEqual(seen, [
    ['b0', 0],
    ['b1', 1],
    ['q0', 0],
  ]);
  gates[0]();
  await new Promise(setImmediate);
  // b2 starts beside b1, with nothing behind it.
  t.deepEqual(seen.at(-1), ['b2', 1]);
  for (const open of gates) open();
  await Promise.all(runs);
  t.throws(() => new FairQueue(2, 3), { instanceOf: RangeError });
});
