/**
 * Prints the dashboard's page routes as JSON, read from the app's own route table
 * (src/app/routing/routes.tsx): each full path pattern with the page file its route loads and
 * the translation namespaces that page fetches with its code (`pageNamespaces`). The build's
 * route preloads (./route-preloads.ts, docs/decisions/0289) come from it.
 *
 * Its own process because the route table is browser code: Vite's module runner evaluates it
 * (import.meta.glob, the `#` imports), and some modules start timers when they load, so the
 * process exits when the table is printed instead of waiting for them.
 */
import { createServer } from 'vite';

const server = await createServer({
  configFile: false,
  root: process.cwd(),
  logLevel: 'error',
  appType: 'custom',
  server: { middlewareMode: true, hmr: false, ws: false },
  optimizeDeps: { noDiscovery: true, include: [] },
});
try {
  const { routes } = await server.ssrLoadModule('/src/app/routing/routes.tsx');
  const { pageNamespaces } = await server.ssrLoadModule('/src/app/routing/page-modules.ts');
  const pages = [];
  const walk = (children, parent) => {
    for (const route of children) {
      const pattern = route.index || !route.path ? parent : `${parent.replace(/\/$/, '')}/${route.path}`;
      if (route.lazy?.file) pages.push({ pattern, file: route.lazy.file, namespaces: pageNamespaces(route.lazy.file) });
      if (route.children) walk(route.children, pattern);
    }
  };
  walk(routes, '');
  process.stdout.write(JSON.stringify(pages));
} finally {
  await server.close();
}
process.exit(0);
