/**
 * Route preloads (issue 22, docs/decisions/0289): writes `route-preloads.json` beside the build,
 * the files each dashboard page needs before it can render, so the server can name them in the
 * page's HTML (server/plugins/client.ts) and the browser fetches them all at once with the entry.
 * Without it they arrive level after level: the entry asks for the main application chunk, that
 * for the route table, that for the page table, that for the page, its shared kit and its
 * translations, and the HTTP client last — six round trips before a data page can ask for data.
 *
 * Per page route (from the app's route table, ./route-table.mjs): the static closure of the
 * chunks the app always takes to reach a dashboard page (the main application, the route table,
 * the page table, the HTTP client, the device keys), of the page's own chunk, and its style sheets. The
 * translations are listed per language, since the language is the server's setting.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Plugin } from 'vite';
import { ROUTE_PRELOADS_FILE, type RoutePreloadTable } from '../../server/plugins/route-preloads.ts';

interface PageRoute {
  pattern: string;
  file: string;
  namespaces: string[];
}

/** The part of a bundle's chunk this plugin reads (Vite's output chunk). */
interface Chunk {
  type: 'chunk';
  fileName: string;
  facadeModuleId: string | null;
  moduleIds: string[];
  imports: string[];
  viteMetadata?: { importedCss: Set<string> };
}

/** Modules every dashboard page's load goes through, whatever the page. */
// The device keys open a returning visitor's saved session, which every dashboard page waits for.
const alwaysOnTheWay = [
  'src/app/app.tsx',
  'src/app/routing/routes.tsx',
  'src/app/routing/page-modules.ts',
  'src/lib/http/runtime.ts',
  'src/lib/security/device-keys.ts',
];

export function routePreloads(root: string): Plugin {
  return {
    name: 'route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((output) => output.type === 'chunk') as unknown as Chunk[];
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      // Already in index.html: the entry and what it imports statically.
      const entryFiles = new Set<string>();
      const closure = (start: Chunk, into: Set<string>) => {
        if (into.has(start.fileName)) return;
        into.add(start.fileName);
        for (const file of start.imports) {
          const next = byFile.get(file);
          if (next) closure(next, into);
        }
      };
      for (const chunk of chunks) if ((chunk as unknown as { isEntry: boolean }).isEntry) closure(chunk, entryFiles);
      // Which chunk holds each module, indexed once: every page route asks for six or more.
      const chunkOfModule = new Map(chunks.flatMap((chunk) => chunk.moduleIds.map((id) => [id, chunk] as const)));
      const holding = (moduleFile: string) => {
        const chunk = chunkOfModule.get(path.join(root, moduleFile));
        if (!chunk) this.error(`route-preloads: no chunk holds ${moduleFile}`);
        return chunk;
      };
      const filesFor = (moduleFiles: string[]) => {
        const files = new Set<string>();
        for (const moduleFile of moduleFiles) closure(holding(moduleFile), files);
        const scripts = [...files].filter((file) => !entryFiles.has(file));
        const styles = [...new Set(scripts.flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]))];
        return { scripts: scripts.map((file) => `/${file}`), styles: styles.map((file) => `/${file}`) };
      };

      const pages = JSON.parse(
        execFileSync(process.execPath, [path.join(root, 'scripts/vite/route-table.mjs')], { cwd: root, encoding: 'utf8' }),
      ) as PageRoute[];
      const table: RoutePreloadTable = {
        routes: pages.map((page) => ({ pattern: page.pattern, namespaces: page.namespaces, ...filesFor([...alwaysOnTheWay, `src/features/${page.file}`]) })),
        locales: {},
      };
      const localeFile = /[\\/]src[\\/]i18n[\\/]locales[\\/]([\w-]+)[\\/](\w+)\.json$/;
      for (const chunk of chunks) {
        const match = chunk.facadeModuleId && localeFile.exec(chunk.facadeModuleId);
        if (match) (table.locales[match[1]] ??= {})[match[2]] = `/${chunk.fileName}`;
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: JSON.stringify(table) });
    },
  };
}
