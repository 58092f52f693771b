/**
 * JavaScript a route needs to render: loads the route in Chromium against a real server,
 * records every script requested before the route's content is on screen (its level-1
 * heading), and sums their gzip sizes. Scripts fetched after that (deferred work such as the
 * version check or the auth actor) are listed apart. Also lists the build's chunks.
 * Signed-in routes (dashboard, tickets, support desk, users) are measured as a returning
 * administrator whose session the app saved (tests/e2e/support/signed-in-page.ts).
 * Budget: `/login` and `/` (anonymous) at most 135 KB gzip (issue 13).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '#tests/e2e/support/browser.ts';
import { removeDataDir, startServer } from '#tests/e2e/support/server.ts';
import { signInContext } from '#tests/e2e/support/signed-in-page.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';

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
  signedIn: boolean;
  scripts: Array<{ url: string; gzip: number }>;
  total: number;
  deferred: Array<{ url: string; gzip: number }>;
  deferredTotal: number;
  /**
   * Requests in a row before the page can ask for its data: the document is level 1, what it
   * names level 2, what a script of level n asks for level n + 1, up to the first API request
   * that a script of the first render makes (issue 22: at most 3 on a data page).
   */
  levels: number;
}

/** The first-render budget of `/login` and `/` (anonymous), gzip (issue 13). */
export const FIRST_RENDER_BUDGET = 135 * 1024;

/** A route to measure; `signedIn` opens it as the seeded administrator. */
export type RouteToMeasure = string | { route: string; signedIn: boolean };

export async function routeScripts(routes: RouteToMeasure[]): Promise<RouteScripts[]> {
  const server = await startServer();
  const browser = await launchBrowser();
  const results: RouteScripts[] = [];
  try {
    for (const wanted of routes) {
      const { route, signedIn } = typeof wanted === 'string' ? { route: wanted, signedIn: false } : wanted;
      // bypassCSP lets the timing probe below run; it changes nothing about what the page loads.
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
      if (signedIn) await signInContext(context, server, { email: TEST_ADMIN_EMAIL, password: TEST_ADMIN_PASSWORD });
      const page = await context.newPage();
      // The moment the route's heading first appears, taken inside the page.
      // (A string, not a function: the TypeScript loader would wrap a function with helpers the page lacks.)
      await page.addInitScript({
        content: `new MutationObserver(() => {
          if (!window.firstHeadingAt && document.querySelector('h1')) window.firstHeadingAt = Date.now();
        }).observe(document, { childList: true, subtree: true });`,
      });
      const requests: Array<Promise<{ url: string; gzip: number; startedAt: number }>> = [];
      page.on('request', (request) => {
        if (request.resourceType() !== 'script') return;
        const receivedAt = Date.now();
        requests.push(
          request.response().then(async (response) => {
            const body = (await response?.body().catch(() => undefined)) ?? Buffer.alloc(0);
            // The browser's own start time (wall clock, like the page's Date.now()): the moment Node
            // hears of a request comes later, and on a fast run made a route's page chunk look
            // deferred (docs/decisions/0160).
            const startTime = request.timing().startTime;
            return { url: new URL(request.url()).pathname, gzip: gzipSync(body, { level: 9 }).length, startedAt: startTime > 0 ? startTime : receivedAt };
          }),
        );
      });
      // Each request's level. A request the parser or a script's call stack starts is one level
      // below the document or the deepest script on that stack (the async parts too). Chromium
      // names no initiator for the preload links the module loader adds for a dynamic import:
      // such a request counts one level below the deepest script that had finished loading
      // when it started, an upper bound.
      const levelOf = new Map<string, number>();
      const finished: Array<{ at: number; level: number }> = [];
      const started = new Map<string, { level: number; script: boolean }>();
      const apiLevels: number[] = [];
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Debugger.enable');
      await cdp.send('Debugger.setAsyncCallStackDepth', { maxDepth: 16 });
      cdp.on('Network.requestWillBeSent', (event) => {
        const url = event.request.url.split('#')[0];
        const { initiator } = event;
        const stackUrls: string[] = [];
        for (let stack = initiator.stack; stack; stack = stack.parent) stackUrls.push(...stack.callFrames.map((frame) => frame.url));
        const from = initiator.type === 'parser' ? [initiator.url ?? ''] : stackUrls;
        const known = from.map((source) => levelOf.get(source) ?? 0);
        const parent = known.some((level) => level > 0)
          ? Math.max(...known)
          : Math.max(1, ...finished.filter((done) => done.at <= event.timestamp).map((done) => done.level));
        const level = event.type === 'Document' ? 1 : parent + 1;
        if (!levelOf.has(url)) levelOf.set(url, level);
        started.set(event.requestId, { level, script: event.type === 'Document' || event.type === 'Script' });
        if (/\/api\//.test(new URL(url).pathname) && (event.type === 'XHR' || event.type === 'Fetch')) apiLevels.push(level);
      });
      cdp.on('Network.loadingFinished', (event) => {
        const request = started.get(event.requestId);
        if (request?.script) finished.push({ at: event.timestamp, level: request.level });
      });
      await page.goto(`${server.url}${route}`);
      await page.locator('h1').first().waitFor();
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      const headingAt = await page.evaluate(() => (window as unknown as { firstHeadingAt: number }).firstHeadingAt);
      const all = await Promise.all(requests);
      const strip = ({ url, gzip }: { url: string; gzip: number }) => ({ url, gzip });
      const scripts = all.filter((r) => r.startedAt <= headingAt).map(strip);
      const deferred = all.filter((r) => r.startedAt > headingAt).map(strip);
      const sum = (list: Array<{ gzip: number }>) => list.reduce((total, s) => total + s.gzip, 0);
      const levels = apiLevels.length ? Math.min(...apiLevels) : Math.max(...scripts.map((s) => levelOf.get(`${server.url}${s.url}`) ?? 0));
      results.push({ route, signedIn, scripts, total: sum(scripts), deferred, deferredTotal: sum(deferred), levels });
      await context.close();
    }
  } finally {
    await browser.close();
    await server.stop();
    await removeDataDir(server.dataDir);
  }
  return results;
}

const signedInRoutes = ['/', '/tickets', '/support', '/users'].map((route) => ({ route, signedIn: true }));

export async function benchBundle(routes: RouteToMeasure[] = ['/login', '/', ...signedInRoutes]) {
  const chunks = await buildChunks();
  console.log('bundle: build chunks (gzip level 9)');
  for (const c of chunks.slice(0, 15)) console.log(`  ${c.file.padEnd(48)} ${kb(c.raw).padStart(10)} raw ${kb(c.gzip).padStart(9)} gzip`);
  if (chunks.length > 15) console.log(`  … and ${chunks.length - 15} smaller chunks`);
  const results = await routeScripts(routes);
  for (const result of results) {
    const who = result.signedIn ? 'signed in' : 'anonymous';
    console.log(`bundle: JS needed to render ${result.route} (${who}): ${kb(result.total)} gzip in ${result.scripts.length} files`);
    for (const s of result.scripts) console.log(`  ${s.url.padEnd(52)} ${kb(s.gzip).padStart(9)}`);
    console.log(`bundle: loaded after ${result.route} (${who}) rendered: ${kb(result.deferredTotal)} gzip in ${result.deferred.length} files`);
    for (const s of result.deferred) console.log(`  ${s.url.padEnd(52)} ${kb(s.gzip).padStart(9)}`);
  }
  console.log(`bundle: first-render JavaScript per route (gzip; budget ${kb(FIRST_RENDER_BUDGET)} for /login and / anonymous)`);
  for (const result of results) {
    console.log(
      `  ${result.route.padEnd(12)} ${(result.signedIn ? 'signed in' : 'anonymous').padEnd(10)} ${kb(result.total).padStart(9)}   +${kb(result.deferredTotal)} after   ${result.levels} levels of requests`,
    );
    if (!result.signedIn && (result.route === '/login' || result.route === '/') && result.total > FIRST_RENDER_BUDGET) process.exitCode = 1;
  }
}
