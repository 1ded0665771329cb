// How the app talks to its server: JSON under /app/api, the session's cookie, and on every change
// the session's token (from the page's meta tag) in X-CSRF-Token. A failure carries the server's
// message and, where a form field is at fault, its name, so the page shows it beside the field.

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

async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const res = await fetch(`/app/api${path}`, {
    method,
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
 * When a read goes to the server. The embedded warehouse runs two reads at once
 * (CLICKHOUSE_READ_SLOTS) in the order they arrive, so a page sending all its reads together has its
 * top parts wait behind the rest. `first`: at once (the figures at the top of a page, light lists);
 * `normal`: once no `first` read is waiting for its answer; `idle`: once no other read is (lists a
 * control needs that no figure waits for).
 */
export type Priority = 'first' | 'normal' | 'idle';

const waiting: { priority: Priority; start: () => void }[] = [];
const running: Record<Priority, number> = { first: 0, normal: 0, idle: 0 };
let pumping = false;

function mayStart(priority: Priority): boolean {
  if (priority === 'first') return true;
  const ahead = (p: Priority) => running[p] + waiting.filter((w) => w.priority === p).length;
  return priority === 'normal' ? ahead('first') === 0 : ahead('first') + ahead('normal') === 0;
}

// Started on the next microtask, so every read a render's effects ask for is known before any goes.
function pump(): void {
  if (pumping) return;
  pumping = true;
  queueMicrotask(() => {
    pumping = false;
    for (const w of [...waiting]) {
      if (!mayStart(w.priority)) continue;
      waiting.splice(waiting.indexOf(w), 1);
      w.start();
    }
  });
}

function inTurn<T>(priority: Priority, run: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    waiting.push({
      priority,
      start: () => {
        running[priority]++;
        run()
          .then(resolve, reject)
          .finally(() => {
            running[priority]--;
            pump();
          });
      },
    });
    pump();
  });
}

/** Runs one of the API's read operations, as the signed-in person, in its turn (see Priority). */
export function read<T>(
  operation: string,
  params: Record<string, string | undefined> = {},
  priority: Priority = 'normal',
): Promise<T> {
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') query.set(k, v);
  const qs = query.toString();
  return inTurn(priority, () => get<T>(`/op/${operation}${qs ? `?${qs}` : ''}`));
}

/** Runs one of the API's write operations, as the signed-in person. */
export const change = <T>(operation: string, input: Record<string, unknown>) => post<T>(`/op/${operation}`, input);

/**
 * The form field a failure is about: the server's own `field`, or else the first of `names` its
 * message starts with (the API's messages name their parameter first, e.g. "url must be ...").
 */
export function fieldOf(err: unknown, names: string[]): string | undefined {
  if (!(err instanceof Failure)) return undefined;
  if (err.field) return err.field;
  return names.find((n) => err.message.startsWith(`${n} `) || err.message.startsWith(`${n}:`));
}

export const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));
