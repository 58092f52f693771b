import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { pandaStatic } from './scripts/vite/panda-static.ts';

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

/**
 * Every module the entry imports statically goes into one chunk (docs/decisions/0180): rolldown
 * otherwise splits what lazy chunks share with the entry into half a dozen small files, each
 * compressed on its own, all of them on the first render anyway.
 */
function bootChunk(entry: string) {
  let boot: Set<string> | undefined;
  return (id: string, context: { getModuleInfo(id: string): { importedIds: readonly string[] } | null }) => {
    if (!boot) {
      boot = new Set();
      const queue = [entry];
      while (queue.length) {
        const next = queue.pop()!;
        if (boot.has(next)) continue;
        boot.add(next);
        queue.push(...(context.getModuleInfo(next)?.importedIds ?? []));
      }
    }
    // Panda's runtime stays out: only lazy chunks still call it (scripts/vite/panda-static.ts).
    return boot.has(id) && !/[\\/]styled-system[\\/]/.test(id) ? 'boot' : null;
  };
}

// react-router 7 maps every import condition to its development build (dev warnings and
// checks included; remix-run/react-router#12532). The build takes its production files, which
// export the same API; `npm run dev` and the tests keep the development ones (docs/decisions/0080).
const reactRouterProduction = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production');

const backend = process.env.BACKEND_URL ?? 'http://127.0.0.1:8080';

export default defineConfig(({ command }) => ({
  plugins: [react(), preloadUiFont(), pandaStatic(import.meta.dirname)],
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
    rolldownOptions: {
      // The generated styled-system modules only build lookup tables at load: unused, they can go (docs/decisions/0180).
      treeshake: { moduleSideEffects: [{ test: /[\\/]styled-system[\\/]/, sideEffects: false }] },
      output: { codeSplitting: { groups: [{ name: bootChunk(path.join(import.meta.dirname, 'src/main.tsx')) }] } },
    },
  },
}));
