import { expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { openDb } from '#server/db/client.ts';
import { manualClock } from '#server/lib/clock.ts';
import { identityRateLimits } from '#server/modules/identity/identity-rate-limits.ts';
import { defaultPublicRateLimit, rateLimitMessage } from '#server/plugins/rate-limit.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, freshIp, stableError, uniqueEmail } from './identity-test-kit.ts';

// Starts on a minute boundary so the fixed windows line up with the assertions.
const clock = manualClock(new Date('2026-06-01T10:00:00Z'));

describeEachDatabase(
  'rate limits on unauthenticated routes',
  (get) => {
    it('should answer 429 with Retry-After in the spec error body once an address exceeds the limit of a route', async () => {
      const { app } = get();
      const ip = freshIp();
      const max = identityRateLimits.confirmEmail[0].max;
      const url = '/api/users/confirm-email?tenant=root&userId=3f2b8c1e-7d4a-4e5f-9a6b-0c1d2e3f4a5b&code=nope';
      clock.advance(60_000 - (clock.now().getTime() % 60_000));
      for (let i = 0; i < max; i += 1) expect((await call(app, 'GET', url, undefined, { ip })).statusCode).toBe(400);
      clock.advance(15_000);
      const limited = await call(app, 'GET', url, undefined, { ip });
      expect(stableError(limited)).toEqual({
        status: 429,
        headers: { 'content-type': 'application/json; charset=utf-8' },
        body: {
          messages: [rateLimitMessage(45)],
          exception: rateLimitMessage(45),
          source: 'GET /api/users/confirm-email',
          statusCode: 429,
          reason: 'rateLimited',
          retryAfterSeconds: 45,
        },
      });
      expect(limited.headers['retry-after']).toBe('45');
      expect((await call(app, 'GET', url)).statusCode).toBe(400);

      clock.advance(45_000);
      expect((await call(app, 'GET', url, undefined, { ip })).statusCode).toBe(400);
    });

    it('should limit sign-in per address', async () => {
      const { app } = get();
      const ip = freshIp();
      clock.advance(60_000 - (clock.now().getTime() % 60_000));
      const body = { email: 'not-an-address', password: 'x' };
      for (let i = 0; i < identityRateLimits.signIn[0].max; i += 1) {
        expect((await call(app, 'POST', '/api/tokens', body, { ip })).statusCode).toBe(400);
      }
      expect((await call(app, 'POST', '/api/tokens', body, { ip })).statusCode).toBe(429);
    });

    it('should count every mail-sending route against one budget per e-mail address, whatever the client address', async () => {
      const { app } = get();
      const target = uniqueEmail('victim');
      const routes = ['/api/users/forgot-password', '/api/users/resend-verification', '/api/users/resendemailtofirsttime'];
      for (let i = 0; i < 5; i += 1) {
        expect((await call(app, 'POST', routes[i % 3], { email: target })).statusCode).toBe(200);
      }
      const limited = await call(app, 'POST', '/api/users/forgot-password', { email: target.toUpperCase() });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await call(app, 'POST', '/api/users/forgot-password', { email: uniqueEmail('other') })).statusCode).toBe(200);
    });

    it('should store neither addresses nor e-mails in the counters', async () => {
      const { app, db } = get();
      const ip = freshIp();
      const email = uniqueEmail('private');
      await call(app, 'POST', '/api/users/forgot-password', { email }, { ip });
      const { rows } = await db.query<{ bucket: string }>(`select bucket from rate_limit_counters`);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.filter((r) => r.bucket.includes(ip) || r.bucket.includes(email))).toEqual([]);
    });

    it('should limit every public route under /api', async () => {
      const { app } = get();
      const publicRoutes = app.routeAccess.filter((r) => r.access === 'public' && r.url.startsWith('/api/'));
      expect(publicRoutes.length).toBeGreaterThanOrEqual(12);
      const unlimited = publicRoutes.filter((r) => !app.rateLimits.get(`${r.method} ${r.url}`)?.length);
      expect(unlimited).toEqual([]);
      expect(app.rateLimits.get('GET /api/health')).toBe(defaultPublicRateLimit);
    });

    it('should hold across two server instances sharing the database', async () => {
      const { app, db, config, databaseUrl } = get();
      const secondDb = databaseUrl ? await openDb({ databaseUrl, poolSize: 2 }) : db;
      const second = await buildApp({ config, db: secondDb, logger: false, clock, runJobs: false });
      try {
        const ip = freshIp();
        const max = identityRateLimits.resetPassword[0].max;
        const body = { email: 'someone@example.test', password: 'x', token: 'not a real token' };
        clock.advance(60_000 - (clock.now().getTime() % 60_000));
        for (let i = 0; i < max; i += 1) {
          const res = await call(i % 2 === 0 ? app : second, 'POST', '/api/users/reset-password', body, { ip });
          expect(res.statusCode).toBe(400);
        }
        expect((await call(app, 'POST', '/api/users/reset-password', body, { ip })).statusCode).toBe(429);
        expect((await call(second, 'POST', '/api/users/reset-password', body, { ip })).statusCode).toBe(429);
      } finally {
        await second.close();
        if (secondDb !== db) await secondDb.close();
      }
    });
  },
  { clock },
);
