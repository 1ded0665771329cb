// ava's `test` as one test file sees it inside a shared test process (shared-process.ts), where
// several files declare their tests to one ava runner. What changes is when things run, never what
// a test does:
// - each title is prefixed with the file's path (`analytics › api › title`), since titles must be
//   unique in a runner and a reader must see which file a test is in;
// - a file is open from its first test's start to its last test's end, and a file's tests start
//   only while at most FILES_AT_ONCE files are open, so one process runs about as many tests at
//   once as the two processes (one per core) of the per-file run did;
// - a file's hooks run with the file, not with the process: its `before` hooks when it opens, its
//   `after` hooks when its last test ends. A server a file starts of its own (settings the
//   process's shared one lacks, server.ts) so lives only while the file's tests run. A failed
//   `before` fails each of the file's tests with its error; a failed `after` fails the last test;
//   `after` hooks run as `after.always` do, whatever the tests' outcome.
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
globalThis.__answerscopeFileGate ??= { open: new Set(), waiting: [] };
const gate = globalThis.__answerscopeFileGate;

// This file's hooks and how many of its declared tests will run (a skipped or todo one never ends).
const hooks = { before: [], after: [] };
let declared = 0;
let ended = 0;
let opened;
let closed;

/** Runs this file's `before` hooks once, when its first test starts. */
function open() {
  opened ??= (async () => {
    for (const hook of hooks.before) await hook();
  })();
  return opened;
}

/**
 * Runs this file's `after` hooks once if it opened, all of them even when one fails; rejects with
 * the first error.
 */
function close() {
  closed ??= (async () => {
    if (!opened) return;
    await opened.catch(() => {});
    let failed;
    for (const hook of hooks.after) {
      try {
        await hook();
      } catch (err) {
        failed ??= { err };
      }
    }
    if (failed) throw failed.err;
  })();
  return closed;
}

/** Waits until this file may run a test: it is open, a place is free, or the test is serial. */
async function enter(serial) {
  for (;;) {
    if (gate.open.has(file) || gate.open.size < FILES_AT_ONCE || serial) {
      gate.open.add(file);
      return;
    }
    await new Promise((resolve) => gate.waiting.push(resolve));
  }
}

/** Counts a test out; the last one closes the file and frees its place. */
async function leave() {
  if (++ended < declared) return;
  try {
    await close();
  } finally {
    gate.open.delete(file);
    for (const resolve of gate.waiting.splice(0)) resolve();
  }
}

/** A test implementation run inside the gate, after the file's `before` hooks. */
function gated(implementation, serial) {
  if (typeof implementation !== 'function') return implementation;
  declared++;
  const run = async (t, ...args) => {
    await enter(serial);
    try {
      await open();
      return await implementation(t, ...args);
    } finally {
      await leave();
    }
  };
  Object.defineProperty(run, 'name', { value: implementation.name });
  if (implementation.title) run.title = implementation.title;
  return run;
}

/** A `before` or `after` hook, kept for this file instead of given to ava (which would run it for the process). */
function keep(kind, implementation) {
  if (typeof implementation !== 'function' || implementation.length > 0) {
    throw new Error(`${label}: a ${kind} hook in a shared process is a function that takes no t`);
  }
  hooks[kind].push(implementation);
}

// After every test has ended, ava runs the process's `after.always` hooks: a file that did not
// close there (its tests left out by --match) closes then.
gate.closers ??= [];
gate.closers.push(close);
if (gate.closers.length === 1) {
  ava.after.always('shared process › close the files left open', async () => {
    await Promise.allSettled(gate.closers.map((closeFile) => closeFile()));
  });
}

const HOOKS = new Set(['before', 'after', 'beforeEach', 'afterEach']);

/**
 * Wraps a chain (test, test.serial, test.after.always...): titles prefixed, tests gated and
 * counted, before and after hooks kept for the file. `path` is the chain's properties so far.
 */
function wrap(chain, path) {
  return new Proxy(chain, {
    apply(target, self, args) {
      const hook = path.find((p) => HOOKS.has(p));
      if (hook === 'beforeEach' || hook === 'afterEach') {
        throw new Error(`${label}: ${hook} hooks would run around every file's tests in a shared process`);
      }
      const at = typeof args[0] === 'string' ? 1 : 0;
      if (hook) return keep(hook, args[at]);
      const out = [...args];
      if (at) out[0] = `${label} › ${out[0]}`;
      if (!path.includes('skip') && !path.includes('todo')) out[at] = gated(out[at], path.includes('serial'));
      return Reflect.apply(target, self, out);
    },
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || prop === 'macro' || prop === 'meta') return value;
      return wrap(value, [...path, prop]);
    },
  });
}

export default wrap(ava, []);
