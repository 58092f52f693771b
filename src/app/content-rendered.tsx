import { useEffect, type ReactNode } from 'react';

/**
 * A signal for work that must not compete with the first screen (the version check, the
 * auth actor's code): it resolves once a route's content has been committed — a layout
 * wraps its outlet in <ContentRendered> — or after `fallbackMs` when nothing ever marks it
 * (an error screen).
 */
let markRendered: () => void = () => {};
const rendered = new Promise<void>((resolve) => {
  markRendered = resolve;
});

export function whenContentRendered(fallbackMs = 10_000): Promise<void> {
  return Promise.race([rendered, new Promise<void>((resolve) => setTimeout(resolve, fallbackMs))]);
}

/** Marks the first render of real content; place it inside the Suspense boundary of a route outlet. */
export function ContentRendered({ children }: { children: ReactNode }) {
  useEffect(() => {
    markRendered();
  }, []);
  return children;
}

/** Runs `task` once the first content is on screen and the browser is idle. */
export function afterFirstContent(task: () => void): void {
  void whenContentRendered().then(() => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(task, { timeout: 2000 });
    else setTimeout(task, 0);
  });
}
