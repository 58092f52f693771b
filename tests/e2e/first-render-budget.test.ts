import { describe, expect, it } from 'vitest';
import { FIRST_RENDER_BUDGET, routeScripts, type RouteScripts } from '../../scripts/bench/bundle-size.ts';

/**
 * The first-render budget (issue 13, docs/decisions/0063, 0064, 0080): the JavaScript Chromium
 * fetches until a route's first content is on screen, gzip, at most 135 KB for /login — and for
 * / too. XState's interpreter is not part of it: it loads after the first content (the auth
 * actor, the version check).
 */
const budget = FIRST_RENDER_BUDGET;

describe('the first render of /login and /', () => {
  it('should need at most 135 KB gzip of JavaScript, none of it XState', async () => {
    const measured: RouteScripts[] = await routeScripts(['/login', '/']);
    for (const route of measured) {
      const summary = `${route.route}: ${(route.total / 1024).toFixed(1)} KB in ${route.scripts.map((s) => s.url).join(', ')}`;
      expect(route.total, summary).toBeLessThanOrEqual(budget);
      expect(route.scripts.length, summary).toBeGreaterThan(3);
      expect(route.scripts.filter((s) => /xstate|raise-/.test(s.url))).toEqual([]);
    }
    // XState does arrive, after the first content (the auth actor starts then).
    for (const route of measured) expect(route.deferred.some((s) => /xstate/.test(s.url))).toBe(true);
  }, 120_000);
});

/**
 * A data page's scripts come in few files (issue 22, docs/decisions/0285): what the pages share
 * is one `page-kit` chunk. Rolldown alone split it into some 60 files of a few hundred bytes,
 * 79 scripts before /users first rendered, which a phone on HTTP/1.1 fetches six at a time.
 */
describe('the first render of a data page', () => {
  it('should need at most 45 script files on /users, the shared parts in one page-kit chunk, and ask for its data at the third level', async () => {
    const [users, tickets] = await routeScripts([
      { route: '/users', signedIn: true },
      { route: '/tickets', signedIn: true },
    ]);
    const summary = `/users: ${users.scripts.length} files: ${users.scripts.map((s) => s.url).join(', ')}`;
    expect(users.scripts.length, summary).toBeLessThanOrEqual(45);
    expect(
      users.scripts.filter((s) => /\/page-kit-[\w-]+\.js$/.test(s.url)),
      summary,
    ).toHaveLength(1);
    // Issue 22, docs/decisions/0289: the page's HTML names its scripts, so the document, the
    // scripts, then the data request: three levels (six before the route preloads).
    expect(users.levels, '/users').toBeLessThanOrEqual(3);
    expect(tickets.levels, '/tickets').toBeLessThanOrEqual(3);
  }, 180_000);
});
