/**
 * Lets the bundler drop the react-router components this app never renders (docs/decisions/0180).
 * react-router's production build declares `Link`, `NavLink` and `Form` as un-annotated
 * `forwardRef(...)` calls and gives them, `ScrollRestoration` and `HistoryRouter` a
 * `displayName` at the top level; both count as side effects, so all of them — with Link's
 * framework-mode prefetching and Form's submission code — stayed in the entry chunk although
 * nothing used them. This marks those calls pure and drops the `displayName` lines of components
 * (contexts keep theirs). Nothing that runs changes.
 */
import type { Plugin } from 'vite';

const componentNames = ['Link', 'NavLink', 'Form', 'ScrollRestoration', 'HistoryRouter'];

export function pureReactRouter(code: string): string {
  const names = componentNames.join('|');
  return code
    .replace(new RegExp(`^(var (?:${names}) = )(React\\d*\\.forwardRef\\()`, 'gm'), '$1/* @__PURE__ */ $2')
    .replace(new RegExp(`^(?:${names})\\.displayName = "[\\w]+";$`, 'gm'), '');
}

export function reactRouterPure(): Plugin {
  return {
    name: 'react-router-pure',
    apply: 'build',
    transform(code, id) {
      if (!/[\\/]node_modules[\\/]react-router[\\/]dist[\\/]production[\\/]chunk-[\w]+\.mjs$/.test(id)) return null;
      const result = pureReactRouter(code);
      return result === code ? null : { code: result, map: null };
    },
  };
}
