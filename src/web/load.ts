// Data for a page: a promise run when its inputs change, with its result, its failure and a reload.
// While new inputs load, the previous result stays on screen (no flash of empty panels) and
// `loading` says it is stale, so the page can mark it busy.
import { useCallback, useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  /** True until the result (or failure) for the current inputs has arrived. */
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(load: () => Promise<T>, inputs: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string; key?: string }>({});
  const [round, setRound] = useState(0);
  const key = JSON.stringify([...inputs, round]);
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ data, key }),
      (err: Error) => current && setState({ error: err.message, key }),
    );
    return () => {
      current = false;
    };
  }, [key]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data: state.data, error: state.error, loading: state.key !== key, reload };
}
