/**
 * Starts the version check once the first screen is up and the browser is idle, so neither
 * its request nor its code (xstate) delays the first render (docs/decisions/0014).
 */
export function startVersionCheck(): void {
  const run = () => {
    import('./version-check.ts')
      .then(({ runVersionCheck }) => runVersionCheck())
      .catch((error: unknown) => console.warn('The version check could not start', error));
  };
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 0);
}
