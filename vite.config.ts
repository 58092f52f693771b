import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// react-router 7 maps every import condition to its development build (dev warnings and
// checks included; remix-run/react-router#12532). The build takes its production files, which
// export the same API; `npm run dev` and the tests keep the development ones (docs/decisions/0080).
const reactRouterProduction = path.join(path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')), 'dist/production');

const backend = process.env.BACKEND_URL ?? 'http://127.0.0.1:8080';

export default defineConfig(({ command }) => ({
  plugins: [react()],
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
  },
}));
