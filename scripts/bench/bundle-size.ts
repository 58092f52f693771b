/**
 * JavaScript a route needs: loads the route in Chromium against a real server, records every
 * script the page fetched until it settled, and sums their gzip sizes. Also lists the
 * build's chunks. Budget: the login route at most 120 KB gzip.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '#tests/e2e/support/browser.ts';
import { removeDataDir, startServer } from '#tests/e2e/support/server.ts';

const dist = path.resolve(import.meta.dirname, '../../dist/assets');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function buildChunks() {
  const files = (await readdir(dist)).filter((f) => f.endsWith('.js'));
  const rows = await Promise.all(
    files.map(async (file) => {
      const data = await readFile(path.join(dist, file));
      return { file, raw: data.length, gzip: gzipSync(data, { level: 9 }).length };
    }),
  );
  return rows.sort((a, b) => b.gzip - a.gzip);
}

export async function routeScripts(routes: string[]) {
  const server = await startServer();
  const browser = await launchBrowser();
  const results: Array<{ route: string; scripts: Array<{ url: string; gzip: number }>; total: number }> = [];
  try {
    for (const route of routes) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      const page = await context.newPage();
      const scripts: Array<{ url: string; gzip: number }> = [];
      page.on('response', async (response) => {
        if (response.request().resourceType() !== 'script') return;
        const body = await response.body().catch(() => Buffer.alloc(0));
        scripts.push({ url: new URL(response.url()).pathname, gzip: gzipSync(body, { level: 9 }).length });
      });
      await page.goto(`${server.url}${route}`, { waitUntil: 'networkidle' });
      await page.waitForTimeout(300);
      results.push({ route, scripts, total: scripts.reduce((sum, s) => sum + s.gzip, 0) });
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    await removeDataDir(server.dataDir);
  }
  return results;
}

export async function benchBundle(routes = ['/login', '/']) {
  const chunks = await buildChunks();
  console.log('bundle: build chunks (gzip level 9)');
  for (const c of chunks.slice(0, 15)) console.log(`  ${c.file.padEnd(48)} ${kb(c.raw).padStart(10)} raw ${kb(c.gzip).padStart(9)} gzip`);
  if (chunks.length > 15) console.log(`  … and ${chunks.length - 15} smaller chunks`);
  for (const result of await routeScripts(routes)) {
    console.log(`bundle: JS loaded to render ${result.route}: ${kb(result.total)} gzip in ${result.scripts.length} files (budget 120 KB for /login)`);
    for (const s of result.scripts) console.log(`  ${s.url.padEnd(52)} ${kb(s.gzip).padStart(9)}`);
  }
}
