import { useCallback, useEffect, useRef, useState } from 'react';

export type ServerSearchState<T> =
  { status: 'idle'; items: T[] } | { status: 'searching'; items: T[] } | { status: 'done'; items: T[] } | { status: 'failed'; items: T[]; error: unknown };

/**
 * Search-as-you-type against the server: `search(text)` waits `delay` ms for the typing to
 * stop, then asks `fetcher`; an answer to an older text is dropped, so the list always belongs
 * to the latest text. Empty text clears the list without a request. The timer stops with the
 * component.
 */
export function useServerSearch<T>(fetcher: (text: string) => Promise<T[]>, delay = 250) {
  const [state, setState] = useState<ServerSearchState<T>>({ status: 'idle', items: [] });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const latest = useRef(0);
  const fetcherRef = useRef(fetcher);
  useEffect(() => {
    fetcherRef.current = fetcher;
  }, [fetcher]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const search = useCallback(
    (text: string) => {
      clearTimeout(timer.current);
      const ticket = ++latest.current;
      if (!text.trim()) {
        setState({ status: 'idle', items: [] });
        return;
      }
      setState((previous) => ({ status: 'searching', items: previous.items }));
      timer.current = setTimeout(() => {
        fetcherRef.current(text.trim()).then(
          (items) => {
            if (ticket === latest.current) setState({ status: 'done', items });
          },
          (error: unknown) => {
            if (ticket === latest.current) setState({ status: 'failed', items: [], error });
          },
        );
      }, delay);
    },
    [delay],
  );

  return { ...state, search };
}
