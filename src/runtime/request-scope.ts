// What a store call needs to know of the request it serves, without every function between the
// two passing it along: the lane it queues in (its organization, src/runtime/fair-queue.ts) and a
// signal that aborts when the client has gone. Set by the HTTP app per request and by
// runOperation per caller; work outside any request (jobs, ingestion) has neither.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestScope {
  /** The organization the work is for. */
  lane?: string;
  /** Aborts when the client has gone before its answer was sent. */
  signal?: AbortSignal;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `fn` with these fields added to the current scope. */
export function inRequestScope<T>(fields: RequestScope, fn: () => T): T {
  return storage.run({ ...storage.getStore(), ...fields }, fn);
}

export function requestScope(): RequestScope {
  return storage.getStore() ?? {};
}
