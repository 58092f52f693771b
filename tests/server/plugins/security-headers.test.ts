import fastifyHelmet from '@fastify/helmet';
import Fastify from 'fastify';
import type { HelmetOptions } from 'helmet';
import { describe, expect, it } from 'vitest';
import { computeSecurityHeaders, helmetOnce } from '#server/plugins/security-headers.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';

const appLike: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      connectSrc: ["'self'", 'ws:', 'wss:'],
      frameAncestors: ["'none'"],
    },
  },
};

/** The headers a server sends for GET /x, 200 and 404 alike, with helmet registered that way. */
async function headersOf(register: (app: ReturnType<typeof Fastify>) => Promise<unknown>) {
  const app = Fastify();
  await register(app);
  app.get('/x', async () => ({ ok: true }));
  const ok = await app.inject({ method: 'GET', url: '/x' });
  const missing = await app.inject({ method: 'GET', url: '/nothing' });
  await app.close();
  const security = (h: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(h).filter(([name]) => !['content-type', 'content-length', 'date', 'connection', 'keep-alive'].includes(name)));
  return { ok: security(ok.headers), missing: security(missing.headers) };
}

describe('security headers computed once (issue 22)', () => {
  for (const [label, options] of [
    ['helmet defaults', {}],
    ['the app’s kind of CSP', appLike],
    ['HSTS off, referrer policy set', { strictTransportSecurity: false, referrerPolicy: { policy: 'same-origin' } }],
  ] as Array<[string, HelmetOptions]>) {
    it(`should send exactly what @fastify/helmet sends, on answers and 404s: ${label}`, async () => {
      const expected = await headersOf((app) => app.register(fastifyHelmet, options));
      const actual = await headersOf((app) => app.register(helmetOnce, options));
      expect(actual).toEqual(expected);
      expect(Object.keys(actual.ok).length).toBeGreaterThan(5);
    });
  }

  it('should refuse a directive computed per request, which cannot be fixed at start-up', () => {
    expect(() => computeSecurityHeaders({ contentSecurityPolicy: { directives: { scriptSrc: ["'self'", () => "'nonce-x'"] } } })).toThrow(/per request/);
  });
});

describeEachDatabase('security headers of the app', (get) => {
  it('should carry the security headers on API answers, errors and the client', async () => {
    const { app } = get();
    for (const url of ['/api/health', '/api/personal/permissions', '/api/nothing-here', '/']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['content-security-policy'], url).toMatch(/default-src 'self'/);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });
});
