import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const backend = process.env.BACKEND_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
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
});
