import { preloadNamespaces } from '#src/i18n/i18n.ts';
import { preloadHttpRuntime } from '#src/lib/http/api.ts';

/**
 * The code of the dashboard's pages, by file (docs/decisions/0180): Vite's glob over the page
 * files themselves — not a list of pages; the route table (./routes.tsx) names each page's
 * file. Its own chunk, so the first screen of `/` does not carry the preload lists of every
 * other page: it is fetched with the routes for any other address, and after the first content.
 */
export const pageModules = import.meta.glob<Record<string, unknown>>([
  '../../features/*/*-page.tsx',
  '../../features/*/*-pages.tsx',
  '../../features/*/*-slices.tsx',
]);

/** The glob's key of a file under src/features ("users/users-page.tsx"). */
export const pageModuleKey = (file: string) => `../../features/${file}`;

/** The shared parts of every dashboard page (tables, fields, error texts) speak these. */
const sharedPageNamespaces = ['ui', 'errors'];

/** A feature page's translations: its feature's namespace (the folder's name) and the shared ones. */
export const pageNamespaces = (file: string) => [file.split('/')[0], ...sharedPageNamespaces];

/**
 * What a feature page needs besides its own code, fetched with it (issue 22, decision 0284): its
 * translations, which it would otherwise suspend on one namespace after another as its parts
 * render, and the HTTP client, which its actor would otherwise load with its first call, after
 * the page has rendered. Here, not in the route
 * table's module, so the first screen of `/` does not carry it.
 */
export function preloadPageNeeds(file: string): Promise<void> {
  void preloadHttpRuntime();
  return preloadNamespaces(pageNamespaces(file));
}
