import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readRoutePreloads, routePreloader, type RoutePreloadTable } from '#server/plugins/route-preloads.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';

/**
 * Issue 22, docs/decisions/0289: a dashboard page's HTML names every file the page needs before
 * it renders, so they load at once with the entry instead of one level after another.
 */
const index = '<html><head><script type="module" src="/assets/boot.js"></script></head><body></body></html>';
const table: RoutePreloadTable = {
  routes: [
    { pattern: '/items/:itemId', scripts: ['/assets/app.js', '/assets/item-editor.js'], styles: [], namespaces: ['items', 'ui'] },
    { pattern: '/items/new', scripts: ['/assets/app.js', '/assets/item-new.js'], styles: ['/assets/editor.css'], namespaces: ['items'] },
    { pattern: '/items', scripts: ['/assets/app.js', '/assets/items.js'], styles: [], namespaces: ['items'] },
    { pattern: '/machines/:machineId?', scripts: ['/assets/machines.js'], styles: [], namespaces: [] },
    { pattern: '/odd', scripts: ['/assets/a"b.js'], styles: [], namespaces: [] },
  ],
  locales: { 'en-IN': { items: '/assets/items-en-IN.js', ui: '/assets/ui-en-IN.js' }, fr: { items: '/assets/items-fr.js' } },
};
const preloads = (html: string) => [...html.matchAll(/<link rel="(modulepreload|preload)"[^>]*href="([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);

describe('the route preloader', () => {
  const pageFor = routePreloader(index, table, 'en-IN');

  it("should name the matched route's scripts, its translations in the server's language, and its style sheets", () => {
    expect(preloads(pageFor('/items/42'))).toEqual([
      'modulepreload /assets/app.js',
      'modulepreload /assets/item-editor.js',
      'modulepreload /assets/items-en-IN.js',
      'modulepreload /assets/ui-en-IN.js',
    ]);
    expect(preloads(routePreloader(index, table, 'fr')('/items/42'))).toEqual([
      'modulepreload /assets/app.js',
      'modulepreload /assets/item-editor.js',
      'modulepreload /assets/items-fr.js',
    ]);
    expect(pageFor('/items')).toContain('<link rel="modulepreload" crossorigin href="/assets/items-en-IN.js">\n  </head><body></body></html>');
    expect(pageFor('/items')).toMatch(/^<html><head><script type="module" src="\/assets\/boot.js"><\/script>/);
  });

  it('should prefer the route with more fixed segments, and take an optional segment either way', () => {
    expect(preloads(pageFor('/items/new'))).toEqual([
      'modulepreload /assets/app.js',
      'modulepreload /assets/item-new.js',
      'modulepreload /assets/items-en-IN.js',
      'preload /assets/editor.css',
    ]);
    expect(preloads(pageFor('/items/'))).toContain('modulepreload /assets/items.js');
    expect(preloads(pageFor('/machines'))).toEqual(['modulepreload /assets/machines.js']);
    expect(preloads(pageFor('/machines/ticketLifecycle'))).toEqual(['modulepreload /assets/machines.js']);
  });

  it('should leave the index as it is where no page route matches, and escape what it writes', () => {
    for (const address of ['/', '/login', '/items/1/2', '/machines/a/b', '/nope', '/%E0%A4']) expect(pageFor(address), address).toBe(index);
    expect(routePreloader(index, undefined, 'en-IN')('/items')).toBe(index);
    expect(pageFor('/odd')).toContain('href="/assets/a&quot;b.js"');
  });
});

const clientDir = path.resolve(import.meta.dirname, '../../../dist');

describe("the build's table", () => {
  it('should list every page route with files that exist, each page with its own chunk', () => {
    const built = readRoutePreloads(clientDir);
    expect(built, 'npm run build writes dist/route-preloads.json').toBeDefined();
    const patterns = built!.routes.map((route) => route.pattern);
    expect(patterns).toEqual(expect.arrayContaining(['/tickets', '/tickets/:ticketId', '/support', '/users', '/items/new', '/machines/:machineId?']));
    for (const route of built!.routes) {
      for (const file of [...route.scripts, ...route.styles]) expect(existsSync(path.join(clientDir, file)), `${route.pattern}: ${file}`).toBe(true);
      // Never what index.html already loads.
      expect(
        route.scripts.filter((file) => /\/(boot|rolldown-runtime)-/.test(file)),
        route.pattern,
      ).toEqual([]);
    }
    const tickets = built!.routes.find((route) => route.pattern === '/tickets')!;
    expect(tickets.scripts.some((file) => /\/my-tickets-page-[\w-]+\.js$/.test(file))).toBe(true);
    expect(tickets.scripts.some((file) => /\/page-modules-[\w-]+\.js$/.test(file))).toBe(true);
    expect(tickets.namespaces).toEqual(['tickets', 'ui', 'errors']);
    for (const language of ['en-IN', 'en-US', 'fr', 'es', 'hi', 'gu']) expect(Object.keys(built!.locales[language] ?? {})).toContain('tickets');
  });
});

describeEachDatabase('the index of a page', (get) => {
  const page = (url: string, acceptEncoding?: string) =>
    get().app.inject({ method: 'GET', url, headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });
  const pageChunk = /<link rel="modulepreload" crossorigin href="\/assets\/my-tickets-page-[\w-]+\.js">/;

  it("should carry the page's preloads, compressed when the browser accepts it", async () => {
    const plain = await page('/tickets');
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toMatch(/^text\/html/);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toMatch(pageChunk);
    const br = await page('/tickets', 'gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gzip = await page('/tickets?status=1', 'gzip, br;q=0');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
    expect((await page('/tickets', 'identity')).headers['content-encoding']).toBeUndefined();
    // The browser's stated preference wins over ours, and a wildcard means our first choice.
    expect((await page('/tickets', 'gzip;q=1, br;q=0.5')).headers['content-encoding']).toBe('gzip');
    expect((await page('/tickets', '*')).headers['content-encoding']).toBe('br');
    expect((await page('/tickets', 'deflate')).headers['content-encoding']).toBeUndefined();
  });

  it('should send the plain index for the sign-in screen and the dashboard, whose first screen it already loads', async () => {
    const built = readFileSync(path.join(clientDir, 'index.html'), 'utf8');
    expect((await page('/login')).body).toBe(built);
    expect((await page('/')).body).toBe(built);
    expect((await page('/no/such/page')).body).toBe(built);
  });
});
