// A large read is parsed with the event loop let through every ROWS_PER_TURN rows
// (src/stores/parsed-rows.ts), so other requests of the process are not held for the whole parse.
// test-process: shared
import test from 'ava';
import { parsedRows, ROWS_PER_TURN } from '../../src/stores/parsed-rows.ts';

/** A result of `n` rows in one batch, noting the first row parsed after a turn of the event loop. */
function result(n: number) {
  const seen = { turned: false, firstAfterTurn: -1 };
  setImmediate(() => {
    seen.turned = true;
  });
  const rows = Array.from({ length: n }, (_, i) => ({
    json: () => {
      if (seen.turned && seen.firstAfterTurn < 0) seen.firstAfterTurn = i;
      return { i };
    },
  }));
  return {
    seen,
    set: {
      async *stream() {
        yield rows;
      },
    },
  };
}

test('rows come back in order, and the event loop turns after every ROWS_PER_TURN of them', async (t) => {
  const big = result(3 * ROWS_PER_TURN + 5);
  const rows = await parsedRows(big.set);
  t.deepEqual(
    rows.map((r) => r.i),
    Array.from({ length: 3 * ROWS_PER_TURN + 5 }, (_, i) => i),
  );
  // Without the turns, the batch (handed over without one) would be parsed before setImmediate ran.
  t.is(big.seen.firstAfterTurn, ROWS_PER_TURN);
});

test('a small read is parsed without a turn', async (t) => {
  const small = result(ROWS_PER_TURN - 1);
  t.is((await parsedRows(small.set)).length, ROWS_PER_TURN - 1);
  t.is(small.seen.firstAfterTurn, -1);
});
