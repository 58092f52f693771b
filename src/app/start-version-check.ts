import { afterFirstContent } from './content-rendered.tsx';

/**
 * Starts the version check once the first route's content is on screen and the browser is
 * idle, so neither its request nor its code (xstate) delays the first render
 * (docs/decisions/0014).
 */
export function startVersionCheck(): void {
  const run = () => {
    import('./version-check.ts')
      .then(({ runVersionCheck }) => runVersionCheck())
      .catch((error: unknown) => console.warn('The version check could not start', error));
  };
  afterFirstContent(run);
}
