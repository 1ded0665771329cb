// Data for a page: a promise run when its inputs change, with its result, its failure and a reload.
// While new inputs load, the previous result stays on screen (no flash of empty panels) and
// `loading` says it is stale, so the page can mark it busy. A load made stale by a newer choice
// (or a page left) is aborted: its reads not yet sent are dropped and those sent are cancelled.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { isAbort, withSignal } from './api.ts';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  /** True until the result (or failure) for the current inputs has arrived. */
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, inputs: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; key?: string }>({});
  const [round, setRound] = useState(0);
  const key = JSON.stringify([...inputs, round]);
  useEffect(() => {
    let current = true;
    const stale = new AbortController();
    withSignal(stale.signal, () => load(stale.signal)).then(
      (data) => current && setState({ data, key }),
      (err: Error) => current && !isAbort(err) && setState({ error: err.message, key }),
    );
    return () => {
      current = false;
      stale.abort();
    };
  }, [key]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data: state.data, error: state.error, loading: state.key !== key, reload };
}

/**
 * While `active`, reads `loaded` again `ms` after its last read answered, never while one is on its
 * way: a read still on its way when the next starts is dropped as stale, so a timer that ran
 * regardless would, on a server slower than it, never let an answer arrive.
 */
export function usePoll(loaded: Loaded<unknown>, active: boolean, ms: number): void {
  useEffect(() => {
    if (!active || loaded.loading) return;
    const timer = setTimeout(loaded.reload, ms);
    return () => clearTimeout(timer);
  }, [active, loaded.loading, loaded.reload, ms]);
}
