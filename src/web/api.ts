// How the app talks to its server: JSON under /app/api, the session's cookie, and on every change
// the session's token (from the page's meta tag) in X-CSRF-Token. A failure carries the server's
// message and, where a form field is at fault, its name, so the page shows it beside the field.
// An operation's params and answer are typed by its declaration (operation-types.ts).
import type { AsTyped, ChangeName, Params, ReadName, ReadParams, Result } from './operation-types.ts';

export class Failure extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

const csrf = () => document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';

/**
 * The signal of the load in progress (load.ts): every read a page's load starts while it runs is
 * aborted when the load is made stale by a newer choice or the page is left, so a read nobody will
 * show stops holding a connection and one of the warehouse's read slots.
 */
let ambientSignal: AbortSignal | undefined;

/** Runs `start` with `signal` as the signal of every read it starts synchronously. */
export function withSignal<T>(signal: AbortSignal | undefined, start: () => T): T {
  const before = ambientSignal;
  ambientSignal = signal;
  try {
    return start();
  } finally {
    ambientSignal = before;
  }
}

/** Whether a failure is an abort this layer asked for (not something to show). */
export const isAbort = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  // Only reads are aborted: a change, once sent, is left to finish and answer.
  const signal = method === 'GET' ? ambientSignal : undefined;
  const res = await fetch(`/app/api${path}`, {
    method,
    signal,
    credentials: 'same-origin',
    headers: method === 'POST' ? { 'content-type': 'application/json', 'x-csrf-token': csrf() } : {},
    body: method === 'POST' ? JSON.stringify(body ?? {}) : undefined,
  });
  // The session ended (signed out elsewhere, expired): sign in again, then come back here.
  if (res.status === 401) {
    location.assign(`/app/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`);
    throw new Failure(401, 'Sign in first');
  }
  const data = await res.json().catch(() => ({ error: `The server answered ${res.status}` }));
  if (!res.ok) throw new Failure(res.status, data.error ?? `The server answered ${res.status}`, data.field);
  return data as T;
}

export const get = <T>(path: string) => call<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => call<T>('POST', path, body);

/**
 * In what order a page's reads go to the server. The embedded warehouse runs two reads at once
 * (CLICKHOUSE_READ_SLOTS) in the order they arrive, and the browser opens six connections to a
 * host, so the reads sent first are answered first. `first`: sent before any other of the same
 * render (the figures at the top of a page, light lists); `normal`: right after; `idle`: once no
 * other read is waiting or running (lists a control needs and no figure waits for).
 */
export type Priority = 'first' | 'normal' | 'idle';

const PRIORITIES: Priority[] = ['first', 'normal', 'idle'];
const waiting: { priority: Priority; start: () => void }[] = [];
let running = 0;
let pumping = false;

function mayStart(priority: Priority): boolean {
  if (priority === 'first') return true;
  if (priority === 'normal') return !waiting.some((w) => w.priority === 'first');
  return running === 0 && waiting.every((w) => w.priority === 'idle');
}

// Started on the next microtask, so every read a render's effects ask for is known before any goes.
function pump(): void {
  if (pumping) return;
  pumping = true;
  queueMicrotask(() => {
    pumping = false;
    for (const priority of PRIORITIES) {
      if (!mayStart(priority)) break;
      for (const w of waiting.filter((x) => x.priority === priority)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.start();
      }
    }
  });
}

function inTurn<T>(priority: Priority, run: () => Promise<T>, signal?: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const entry = {
      priority,
      start: () => {
        running++;
        run()
          .then(resolve, reject)
          .finally(() => {
            running--;
            pump();
          });
      },
    };
    waiting.push(entry);
    // Aborted before its turn: it leaves the line without ever being sent.
    signal?.addEventListener('abort', () => {
      const at = waiting.indexOf(entry);
      if (at < 0) return;
      waiting.splice(at, 1);
      reject(new DOMException('The read was made stale', 'AbortError'));
      pump();
    });
    pump();
  });
}

/**
 * `P` when it names only what `T` names. An object literal's own keys are checked anyway; this also
 * checks those it spreads in (a page's filters), which TypeScript lets through otherwise.
 */
type Exactly<P, T> = P & { [K in Exclude<keyof P, keyof T>]: never };

/** Runs one of the API's read operations, as the signed-in person, in its turn (see Priority). */
export function read<N extends ReadName, P extends ReadParams<N> = ReadParams<N>>(
  operation: N,
  params: Exactly<P, ReadParams<N>> = {} as Exactly<P, ReadParams<N>>,
  priority: Priority = 'normal',
): Promise<Result<N>> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries<string | undefined>(params)) if (v !== undefined && v !== '') query.set(k, v);
  const qs = query.toString();
  const signal = ambientSignal;
  return inTurn(
    priority,
    () => withSignal(signal, () => get<Result<N>>(`/op/${operation}${qs ? `?${qs}` : ''}`)),
    signal,
  );
}

// One request behind `change` and `changeAsTyped`, which differ only in how their input is typed.
const send = <T>(operation: string, input: unknown) => post<T>(`/op/${operation}`, input);

/** Runs one of the API's write operations, as the signed-in person. */
export const change: <N extends ChangeName>(operation: N, input: Params<N>) => Promise<Result<N>> = send;

/**
 * `change` for a form that sends a number as the person typed it (AsTyped), for the server to refuse
 * by field: the same request, its input typed more loosely.
 */
export const changeAsTyped: <N extends ChangeName>(operation: N, input: AsTyped<Params<N>>) => Promise<Result<N>> =
  send;

export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
