import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'vite';
import { freePort } from './server.ts';

const root = path.resolve(import.meta.dirname, '../../..');

/**
 * Vite's dev server on 127.0.0.1 and a free port for a test-only harness page under
 * tests/e2e/fixtures/ (never built into the app): the real client modules, with their real
 * styles, driven from the test through `window.harness`. `include` names the dependencies to
 * pre-bundle up front, so the first page load does not reload half-way.
 */
export async function startHarnessServer(harnessPath: string, include: string[]) {
  const cacheDir = await mkdtemp(path.join(tmpdir(), 'exam-portal-vite-'));
  const port = await freePort();
  const vite = await createServer({
    root,
    configFile: path.join(root, 'vite.config.ts'),
    cacheDir,
    logLevel: 'error',
    clearScreen: false,
    server: { host: '127.0.0.1', port, strictPort: true, hmr: false, watch: null },
    optimizeDeps: { entries: [harnessPath.slice(1)], include },
  });
  await vite.listen();
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    async close() {
      await vite.close();
      await rm(cacheDir, { recursive: true, force: true });
    },
  };
}
