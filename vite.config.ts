import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { pandaStatic } from './scripts/vite/panda-static.ts';
import { reactRouterPure } from './scripts/vite/react-router-pure.ts';
import { routePreloads } from './scripts/vite/route-preloads.ts';
import { stylesheetAfterSplash } from './scripts/vite/stylesheet-after-splash.ts';

/**
 * Preloads the Latin faces of the UI font the first screen uses (regular and semibold), so
 * they arrive with the scripts instead of after the CSS is parsed (issue 22). Their hashed
 * names are known only once the bundle is written.
 */
function preloadUiFont(faces = [/public-sans-latin-400-normal-[\w-]+\.woff2$/, /public-sans-latin-600-normal-[\w-]+\.woff2$/]): Plugin {
  return {
    name: 'preload-ui-font',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const files = Object.keys(context.bundle ?? {});
        return faces.flatMap((face) => {
          const file = files.find((name) => face.test(name));
          return file
            ? [{ tag: 'link', injectTo: 'head' as const, attrs: { rel: 'preload', as: 'font', type: 'font/woff2', href: `/${file}`, crossorigin: '' } }]
            : [];
        });
      },
    },
  };
}

type ChunkingContext = { getModuleInfo(id: string): { importedIds: readonly string[]; dynamicallyImportedIds: readonly string[] } | null };

/**
 * Three chunks on the way to the first screen, each holding every module it imports statically
 * (docs/decisions/0180): rolldown otherwise splits what lazy chunks share with them into a dozen
 * small files, each compressed on its own, all of them on the first render anyway.
 * - `boot`: the entry's imports (React, the router, i18next, the stores);
 * - `app`: the main application chunk, with the sign-in screens' routes;
 * - `routes`: the dashboard's part of the route table with the shell, less what the sign-in
 *   screens use (so `/login` never loads it).
 *
 * And one for the dashboard's pages (docs/decisions/0285):
 * - `page-kit`: what at least a quarter of the pages import and the first screen does not
 *   (tables, fields, menus, Ark UI and its state machines, XState). Left to rolldown, a data
 *   page fetched these as some 60 files of a few hundred bytes each, which a phone on HTTP/1.1
 *   asks for six at a time. Left out: what the sign-in screen loads after it has rendered (the
 *   session's machines, the notifications host), so `/login` does not fetch the kit, and any
 *   module something imports lazily, which stays lazy.
 */
function plannedChunks(root: string, pageKitShare = 0.25) {
  const file = (name: string) => path.join(root, name);
  let groups: Map<string, string> | undefined;
  const closure = (context: ChunkingContext, starts: readonly string[], known = new Set<string>()) => {
    const found = new Set<string>();
    const queue = [...starts];
    while (queue.length) {
      const id = queue.pop()!;
      if (found.has(id) || known.has(id)) continue;
      found.add(id);
      queue.push(...(context.getModuleInfo(id)?.importedIds ?? []));
    }
    return found;
  };
  const packageOf = (id: string) => /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(id)?.[1];
  let bootPackages = new Set<string | undefined>();
  /** The modules at least `pageKitShare` of the dashboard's pages import statically, less the first screen's and what it loads next. */
  const pageKit = (context: ChunkingContext, firstScreen: Set<string>, mainChunks: Set<string>, signInPages: readonly string[]) => {
    const info = (id: string) => context.getModuleInfo(id);
    const pageTable = file('src/app/routing/page-modules.ts');
    const pages = info(pageTable)?.dynamicallyImportedIds ?? [];
    // What the sign-in screen loads once it has rendered (its lazy imports and what they import), short of the route tables and pages.
    const routeTables = [pageTable, file('src/app/routing/routes.tsx'), file('src/app/app.tsx'), ...signInPages];
    const lazyFromMain = [...mainChunks].flatMap((id) => info(id)?.dynamicallyImportedIds ?? []);
    const next = closure(context, lazyFromMain, new Set([...firstScreen, ...routeTables]));
    const pageClosures = pages.map((page) => [...closure(context, [page], firstScreen)].filter((id) => id !== page));
    const lazyTargets = new Set(pageClosures.flat().flatMap((id) => info(id)?.dynamicallyImportedIds ?? []));
    const uses = new Map<string, number>();
    const left = (id: string) => next.has(id) || lazyTargets.has(id) || bootPackages.has(packageOf(id));
    for (const members of pageClosures) for (const id of members) if (!left(id)) uses.set(id, (uses.get(id) ?? 0) + 1);
    return [...uses].filter(([, count]) => count >= pageKitShare * pages.length).map(([id]) => id);
  };
  return (id: string, context: ChunkingContext) => {
    if (!groups) {
      const main = closure(context, [file('src/main.tsx')]);
      // A package the entry uses goes whole: its CommonJS files reach each other through
      // `require`, which is no import edge here (react → react/cjs/react.production.js).
      bootPackages = new Set([...main].map(packageOf).filter(Boolean));
      const boot = main;
      const app = closure(context, [file('src/app/app.tsx')], boot);
      // The sign-in screens never load the dashboard's chunk; what the sign-in page itself shares with it joins the main chunk.
      const signInPages = context.getModuleInfo(file('src/app/routing/auth-routes.tsx'))?.dynamicallyImportedIds ?? [];
      const signIn = closure(context, [file('src/features/auth/sign-in-page.tsx')], new Set([...boot, ...app]));
      const otherAuthPages = closure(context, signInPages, new Set([...boot, ...app, ...signIn]));
      const dashboard = closure(context, [file('src/app/routing/routes.tsx')], new Set([...boot, ...app]));
      for (const id of dashboard) if (signIn.has(id)) app.add(id);
      const routes = new Set([...dashboard].filter((id) => !signIn.has(id) && !otherAuthPages.has(id)));
      const own = (id: string) => id.startsWith(file('src/')) || id.startsWith(file('machines/'));
      groups = new Map();
      for (const member of boot) groups.set(member, 'boot');
      const firstScreen = new Set([...boot, ...app, ...signIn, ...dashboard]);
      for (const id of pageKit(context, firstScreen, new Set([...boot, ...app]), signInPages)) groups.set(id, 'page-kit');
      for (const [name, members] of [
        ['app', app],
        ['routes', routes],
      ] as const)
        for (const member of members) if (own(member)) groups.set(member, name);
    }
    // Panda's runtime stays out of the first screen's chunks (only lazy chunks still call it), all but `cx`, a string join the first screen uses.
    if (/[\\/]styled-system[\\/]/.test(id))
      return /[\\/]styled-system[\\/]css[\\/]cx\.mjs$/.test(id) ? 'boot' : groups.get(id) === 'page-kit' ? 'page-kit' : null;
    return groups.get(id) ?? (bootPackages.has(packageOf(id)) ? 'boot' : null);
  };
}

// react-router 7 maps every import condition to its development build (dev warnings and
// checks included; remix-run/react-router#12532). The build takes its production files, which
// export the same API; `npm run dev` and the tests keep the development ones (docs/decisions/0080).
const reactRouterProduction = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production');

const backend = process.env.BACKEND_URL ?? 'http://127.0.0.1:8080';

export default defineConfig(({ command }) => ({
  plugins: [react(), preloadUiFont(), stylesheetAfterSplash(), pandaStatic(import.meta.dirname), reactRouterPure(), routePreloads(import.meta.dirname)],
  resolve: {
    alias:
      command === 'build'
        ? [
            { find: /^react-router$/, replacement: path.join(reactRouterProduction, 'index.mjs') },
            { find: /^react-router\/dom$/, replacement: path.join(reactRouterProduction, 'dom-export.mjs') },
          ]
        : [],
  },
  server: {
    host: '127.0.0.1',
    // `npm run dev`: the API, runtime config and dev mailbox come from the Node server.
    proxy: {
      '/api': { target: backend, ws: true },
      '/config.js': backend,
      '/meta.json': backend,
      '/dev/mailbox': backend,
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 600,
    modulePreload: {
      // Every browser the build targets preloads modules itself or does without (then a chunk's imports load after it).
      polyfill: false,
      // The first-render chunks are on the page before any lazy chunk asks for them.
      resolveDependencies: (_file, deps) => deps.filter((dep) => !/(^|\/)(boot|app|routes|rolldown-runtime)-[\w-]{8}\.(js|css)$/.test(dep)),
    },
    rolldownOptions: {
      // The generated styled-system modules only build lookup tables at load: unused, they can go (docs/decisions/0180).
      treeshake: { moduleSideEffects: [{ test: /[\\/]styled-system[\\/]/, sideEffects: false }] },
      output: { codeSplitting: { groups: [{ name: plannedChunks(import.meta.dirname), debugName: 'planned-chunks', includeDependenciesRecursively: false }] } },
    },
  },
}));
