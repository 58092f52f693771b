import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A dashboard page's HTML names the files the page needs before it can render (issue 22,
 * docs/decisions/0289): the build lists them per route (scripts/vite/route-preloads.ts), and
 * each becomes a `<link rel="modulepreload">` in the page's head. The browser then fetches the
 * main application, the route table, the page and its translations in parallel with the entry,
 * instead of each after the script that asks for it has run. The app loads them exactly as
 * before; the links only start the requests early.
 */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/** What the build writes: per page route, the files to preload; per language, each namespace's file. */
export interface RoutePreloadTable {
  routes: Array<{ pattern: string; scripts: string[]; styles: string[]; namespaces: string[] }>;
  locales: Record<string, Record<string, string>>;
}

interface CompiledRoute {
  segments: string[];
  /** Static segments count most, then parameters; optional ones least (a route matches its most specific pattern). */
  rank: number;
  html: string;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The segments of a path, without empty ones (`/tickets/` is `/tickets`). */
const segmentsOf = (pathname: string) => pathname.split('/').filter(Boolean);

function matches(pattern: string[], path: string[]): boolean {
  let p = 0;
  for (const segment of pattern) {
    const optional = segment.endsWith('?');
    if (p >= path.length) {
      if (optional) continue;
      return false;
    }
    if (!segment.startsWith(':') && segment !== path[p]) return false;
    p += 1;
  }
  return p === path.length;
}

/**
 * The index page for each address: `indexHtml` with the preload links of the route that
 * address opens, in `language`; `indexHtml` unchanged for addresses no page route matches
 * (the sign-in screens and `/`, whose first screen index.html already carries).
 */
export function routePreloader(indexHtml: string, table: RoutePreloadTable | undefined, language: string): (pathname: string) => string {
  if (!table) return () => indexHtml;
  const locale = table.locales[language] ?? {};
  const compiled: CompiledRoute[] = table.routes.map((route) => {
    const segments = segmentsOf(route.pattern);
    const links = [
      ...route.scripts.map((href) => `<link rel="modulepreload" crossorigin href="${escapeAttribute(href)}">`),
      ...route.namespaces.flatMap((namespace) =>
        locale[namespace] ? [`<link rel="modulepreload" crossorigin href="${escapeAttribute(locale[namespace])}">`] : [],
      ),
      ...route.styles.map((href) => `<link rel="preload" as="style" crossorigin href="${escapeAttribute(href)}">`),
    ];
    return {
      segments,
      rank: segments.reduce((sum, segment) => sum + (segment.endsWith('?') ? 1 : segment.startsWith(':') ? 2 : 3), 0),
      html: indexHtml.replace('</head>', `    ${links.join('\n    ')}\n  </head>`),
    };
  });
  compiled.sort((a, b) => b.rank - a.rank);
  // Parameters match any segment and static segments are plain ASCII, so the path is matched as sent.
  return (pathname) => {
    const path = segmentsOf(pathname);
    return compiled.find((route) => matches(route.segments, path))?.html ?? indexHtml;
  };
}

/** The build's table, or undefined when the client was built without it. */
export function readRoutePreloads(clientDir: string): RoutePreloadTable | undefined {
  const file = path.join(clientDir, ROUTE_PRELOADS_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as RoutePreloadTable;
  } catch {
    return undefined;
  }
}
