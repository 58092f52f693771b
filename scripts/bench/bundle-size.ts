/**
 * JavaScript a route needs to render: loads the route in Chromium against a real server,
 * records every script requested before the route's content is on screen (its level-1
 * heading), and sums their gzip sizes. Scripts fetched after that (deferred work such as the
 * version check or the auth actor) are listed apart. Also lists the build's chunks.
 * Budget: the login route at most 120 KB gzip.
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

export interface RouteScripts {
  route: string;
  scripts: Array<{ url: string; gzip: number }>;
  total: number;
  deferred: Array<{ url: string; gzip: number }>;
  deferredTotal: number;
}

export async function routeScripts(routes: string[]): Promise<RouteScripts[]> {
  const server = await startServer();
  const browser = await launchBrowser();
  const results: RouteScripts[] = [];
  try {
    for (const route of routes) {
      // bypassCSP lets the timing probe below run; it changes nothing about what the page loads.
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
      const page = await context.newPage();
      // The moment the route's heading first appears, taken inside the page.
      // (A string, not a function: the TypeScript loader would wrap a function with helpers the page lacks.)
      await page.addInitScript({
        content: `new MutationObserver(() => {
          if (!window.firstHeadingAt && document.querySelector('h1')) window.firstHeadingAt = Date.now();
        }).observe(document, { childList: true, subtree: true });`,
      });
      const requests: Array<{ startedAt: number; measured: Promise<{ url: string; gzip: number }> }> = [];
      page.on('request', (request) => {
        if (request.resourceType() !== 'script') return;
        const startedAt = Date.now();
        const measured = request.response().then(async (response) => ({
          url: new URL(request.url()).pathname,
          gzip: gzipSync((await response?.body().catch(() => undefined)) ?? Buffer.alloc(0), { level: 9 }).length,
        }));
        requests.push({ startedAt, measured });
      });
      await page.goto(`${server.url}${route}`);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      const headingAt = await page.evaluate(() => (window as unknown as { firstHeadingAt: number }).firstHeadingAt);
      const scripts = await Promise.all(requests.filter((r) => r.startedAt <= headingAt).map((r) => r.measured));
      const deferred = await Promise.all(requests.filter((r) => r.startedAt > headingAt).map((r) => r.measured));
      const sum = (list: Array<{ gzip: number }>) => list.reduce((total, s) => total + s.gzip, 0);
      results.push({ route, scripts, total: sum(scripts), deferred, deferredTotal: sum(deferred) });
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    await removeDataDir(server.dataDir);
  }
  return results;
}

/** docs/decisions/0063: the JavaScript needed to render /login, gzip. */
const LOGIN_BUDGET_BYTES = 120 * 1024;

export async function benchBundle(routes = ['/login', '/']) {
  const chunks = await buildChunks();
  console.log('bundle: build chunks (gzip level 9)');
  for (const c of chunks.slice(0, 15)) console.log(`  ${c.file.padEnd(48)} ${kb(c.raw).padStart(10)} raw ${kb(c.gzip).padStart(9)} gzip`);
  if (chunks.length > 15) console.log(`  … and ${chunks.length - 15} smaller chunks`);
  for (const result of await routeScripts(routes)) {
    const overBudget = result.route === '/login' && result.total > LOGIN_BUDGET_BYTES;
    if (overBudget) process.exitCode = 1;
    console.log(`bundle: JS needed to render ${result.route}: ${kb(result.total)} gzip in ${result.scripts.length} files (budget 120 KB for /login)${overBudget ? '  ✗ budget breached' : ''}`);
    for (const s of result.scripts) console.log(`  ${s.url.padEnd(52)} ${kb(s.gzip).padStart(9)}`);
    console.log(`bundle: loaded after ${result.route} rendered: ${kb(result.deferredTotal)} gzip in ${result.deferred.length} files`);
    for (const s of result.deferred) console.log(`  ${s.url.padEnd(52)} ${kb(s.gzip).padStart(9)}`);
  }
}
