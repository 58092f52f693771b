import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';

describeEachDatabase('foundation routes', (get) => {
  describe('GET /api/health', () => {
    it('should answer Healthy with the database kind when the database answers', async () => {
      const { app, kind } = get();
      const res = await app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'Healthy', database: { status: 'ok', kind }, version: '1.2.253' });
    });
  });

  describe('GET /meta.json', () => {
    it('should serve the package version and forbid caching', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/meta.json' });
      expect(res.json()).toEqual({ version: '1.2.253' });
      expect(res.headers['cache-control']).toBe('no-store');
    });
  });

  describe('GET /config.js', () => {
    it('should set the runtime configuration object from the environment', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/config.js' });
      expect(res.headers['content-type']).toMatch(/^text\/javascript/);
      const match = /^window\.__APP_CONFIG__ = (.*);\n$/s.exec(res.body);
      expect(match).not.toBeNull();
      const config = JSON.parse(match![1]);
      expect(config).toMatchObject({
        userService: '/api',
        notificationService: '/api',
        fontFamily: `'Public Sans', sans-serif`,
        i18n: 'en-IN',
        mode: 'light',
        presetColor: 'default',
        themeDirection: 'ltr',
        miniDrawer: false,
        container: false,
        defaultPath: '/',
        productKey: 'exam-portal',
        // No LDAP_URL in the test environment: the users screen hides directory import (issue 23).
        directoryConfigured: false,
      });
      expect(config.persistSecret).toMatch(/^[\w-]{40,}$/);
    });
  });

  describe('unknown /api routes', () => {
    it('should answer 404 in the error shape of the spec', async () => {
      const res = await get().app.inject({ method: 'POST', url: '/api/v1/nothing-here?x=1' });
      expect(res.statusCode).toBe(404);
      const body = res.json();
      expect(body).toMatchObject({
        messages: ['The resource POST /api/v1/nothing-here was not found.'],
        source: 'POST /api/v1/nothing-here',
        exception: 'The resource POST /api/v1/nothing-here was not found.',
        statusCode: 404,
      });
      expect(body.errorId).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.supportMessage).toContain(body.errorId);
    });
  });

  describe('dev mailbox', () => {
    it('should list outbox mails for one address, newest first', async () => {
      const { app } = get();
      await app.mailer.send({ to: 'Someone@Example.test', subject: 'first', text: 'one', html: '<p>one</p>' });
      await app.mailer.send({ to: 'someone@example.test', subject: 'second', text: 'two', html: '<p>two</p>' });
      await app.mailer.send({ to: 'other@example.test', subject: 'other', text: 'x', html: 'x' });
      const res = await app.inject({ method: 'GET', url: '/dev/mailbox.json?to=someone@example.test' });
      expect(res.statusCode).toBe(200);
      const mails = res.json();
      expect(mails.map((m: { subject: string }) => m.subject)).toEqual(['second', 'first']);
      expect(Object.keys(mails[0]).sort()).toEqual(['html', 'sentAt', 'subject', 'text', 'to']);
      const page = await app.inject({ method: 'GET', url: '/dev/mailbox' });
      expect(page.body).toContain('<h2>second</h2>');
    });

    it('should answer 400 with problem details when the query is invalid', async () => {
      const res = await get().app.inject({ method: 'GET', url: `/dev/mailbox.json?to=${'a'.repeat(400)}` });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({
        title: 'One or more validation errors occurred.',
        status: 400,
        errors: { to: ['to must be at most 320 characters long.'] },
      });
    });
  });

  describe('security headers', () => {
    it('should send a CSP that allows scripts from the origin only', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/meta.json' });
      expect(res.headers['content-security-policy']).toContain("script-src 'self';");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    });

    it('should keep connections to its own origin, frame only by CSP and send no HSTS over plain HTTP (issue 23)', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/meta.json' });
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("connect-src 'self' ws://exam-portal.test;");
      expect(csp).not.toMatch(/connect-src[^;]*\b(ws|wss):(;| )/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBeUndefined();
      expect(res.headers['strict-transport-security']).toBeUndefined();
    });
  });

  describe('GET /api/docs', () => {
    it('should publish an OpenAPI document generated from the route schemas', async () => {
      const res = await get().app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toBe('3.1.0');
      expect(doc.info.version).toBe('1.2.253');
      expect(doc.paths['/api/health'].get.responses['200']).toBeDefined();
    });
  });
});
