// ava's `test` as one test file sees it inside a shared test process (shared-process.ts), where
// several files declare their tests to one ava runner. Two things change, neither what a test does:
// - each title is prefixed with the file's path (`analytics › api › title`), since titles must be
//   unique in a runner and a reader must see which file a test is in;
// - a file's tests start only while at most FILES_AT_ONCE files have tests running, so one process
//   runs about as many tests at once as the two processes (one per core) of the per-file run did,
//   not the concurrent tests of every file at once.
import ava from 'ava';

export * from 'ava';

const FILES_AT_ONCE = 2;
const file = new URL(import.meta.url).searchParams.get('file') ?? '';
// As ava prefixes a file's titles when it runs the file alone (`analytics › api › title`).
const label = file
  .replace(/^.*?\/test\//, '')
  .replace(/\.test\.ts$/, '')
  .replaceAll('/', ' › ');

// The gate is one per process: every wrapper instance shares it through globalThis.
globalThis.__answerscopeFileGate ??= { running: new Map(), waiting: [] };
const gate = globalThis.__answerscopeFileGate;

/** Waits until this file may run tests (it already is, or a place is free), then counts one in. */
async function enter() {
  for (;;) {
    const count = gate.running.get(file);
    if (count !== undefined || gate.running.size < FILES_AT_ONCE) {
      gate.running.set(file, (count ?? 0) + 1);
      return;
    }
    await new Promise((resolve) => gate.waiting.push(resolve));
  }
}

function leave() {
  const count = gate.running.get(file) - 1;
  if (count > 0) {
    gate.running.set(file, count);
    return;
  }
  gate.running.delete(file);
  for (const resolve of gate.waiting.splice(0)) resolve();
}

/** A test implementation run inside the gate; hooks (before, after) are not gated. */
function gated(implementation) {
  if (typeof implementation !== 'function') return implementation;
  const run = async (t, ...args) => {
    await enter();
    try {
      return await implementation(t, ...args);
    } finally {
      leave();
    }
  };
  Object.defineProperty(run, 'name', { value: implementation.name });
  if (implementation.title) run.title = implementation.title;
  return run;
}

const HOOKS = new Set(['before', 'after', 'beforeEach', 'afterEach']);

/** Wraps a chain (test, test.serial, test.after.always...): titles prefixed, tests gated. */
function wrap(chain, hook) {
  return new Proxy(chain, {
    apply(target, self, args) {
      const out = [...args];
      if (typeof out[0] === 'string') out[0] = `${label} › ${out[0]}`;
      const at = typeof args[0] === 'string' ? 1 : 0;
      if (!hook) out[at] = gated(out[at]);
      return Reflect.apply(target, self, out);
    },
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'macro' || prop === 'meta') return value;
      return wrap(value, hook || HOOKS.has(prop));
    },
  });
}

export default wrap(ava, false);
