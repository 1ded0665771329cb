// Data for a page: a promise run when its inputs change, with its result, its failure and a reload.
import { useCallback, useEffect, useState } from 'preact/hooks';

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  reload: () => void;
}

export function useLoad<T>(load: () => Promise<T>, inputs: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const [round, setRound] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (data) => current && setState({ data }),
      (err: Error) => current && setState({ error: err.message }),
    );
    return () => {
      current = false;
    };
  }, [...inputs, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { data: state.data, error: state.error, reload };
}
