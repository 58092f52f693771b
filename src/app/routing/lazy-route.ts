import type { ComponentType } from 'react';
import { loadChunk } from '#src/lib/lazy-chunk.ts';

/** A route's `lazy`: the data router calls it before the route first renders (docs/decisions/0180). */
export type LazyRouteModule = () => Promise<{ Component: ComponentType }>;

/**
 * A lazy route module: the page's code is its own chunk, which the data router loads with the
 * route — every matched level at once, before rendering, instead of each after its parent has
 * rendered (issue 22) — with the ChunkLoadError handling of every chunk (spec §8, §9).
 */
export function page<M extends Record<string, unknown>>(importer: () => Promise<M>, exportName: keyof M & string = 'default'): LazyRouteModule {
  return async () => ({ Component: (await loadChunk(importer))[exportName] as ComponentType });
}

let pageModules: Promise<typeof import('./page-modules.ts')> | undefined;

/** The table of page modules (./page-modules.ts), fetched once. */
export const loadPageModules = () => (pageModules ??= loadChunk(() => import('./page-modules.ts')));

/** A page of the dashboard by its file under src/features, loaded through ./page-modules.ts; `file` and `exportName` stay readable for tests. */
export function featurePage(file: string, exportName = 'default'): LazyRouteModule & { file: string; exportName: string } {
  const load: LazyRouteModule = async () => {
    const { pageModules: modules, pageModuleKey, preloadPageNeeds } = await loadPageModules();
    const importer = modules[pageModuleKey(file)];
    if (!importer) throw new Error(`No page module src/features/${file}`);
    const [module] = await Promise.all([loadChunk(importer), preloadPageNeeds(file)]);
    return { Component: module[exportName] as ComponentType };
  };
  return Object.assign(load, { file, exportName });
}
