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
