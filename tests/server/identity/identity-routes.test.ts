import fc from 'fast-check';
import { expect, it } from 'vitest';
import { P } from '#machines/permissions.ts';
import { buildApp } from '#server/app.ts';
import type { CredentialSubject, PasswordVerifier } from '#server/modules/identity/password-verifiers.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, createUser, freshIp, mailsTo, codeIn, signIn } from './identity-test-kit.ts';

/** Every identity route and the access it must declare (docs/decisions/0005). */
const expectedAccess = [
  { method: 'POST', url: '/api/tokens', access: 'public' },
  { method: 'POST', url: '/api/tokens/verifyotp', access: 'public' },
  { method: 'POST', url: '/api/tokens/resendotp', access: 'public' },
  { method: 'POST', url: '/api/tokens/refresh', access: 'public' },
  { method: 'POST', url: '/api/users/:userId/invalidatepermission', access: 'authenticated' },
  { method: 'GET', url: '/api/personal/permissions', access: 'authenticated' },
  { method: 'POST', url: '/api/users/forgot-password', access: 'public' },
  { method: 'POST', url: '/api/users/reset-password', access: 'public' },
  { method: 'POST', url: '/api/users/change-password/', access: 'authenticated' },
  { method: 'POST', url: '/api/users/change-password', access: 'authenticated' },
  { method: 'POST', url: '/api/users/validateemail', access: 'public' },
  { method: 'POST', url: '/api/users/resend-verification', access: 'public' },
  { method: 'POST', url: '/api/users/resendemailtofirsttime', access: 'public' },
  { method: 'GET', url: '/api/users/confirm-email', access: 'public' },
  { method: 'POST', url: '/api/users/updatefirsttimelogin', access: 'authenticated' },
  { method: 'POST', url: '/api/users/sendinvitationorconfirmation', access: { anyOf: [P.Users.Create, P.Users.Update] } },
  { method: 'POST', url: '/api/users/self-register', access: 'public' },
] as const;

const concrete = (url: string) => url.replace(':userId', '3f2b8c1e-7d4a-4e5f-9a6b-0c1d2e3f4a5b');

describeEachDatabase('identity routes', (get) => {
  it('should declare the expected access on every identity route', () => {
    const { app } = get();
    for (const route of expectedAccess) expect(app.routeAccess).toContainEqual(route);
    const undeclared = app.routeAccess.filter((r) => r.url.startsWith('/api/') && !r.url.startsWith('/api/docs') && !r.access);
    expect(undeclared).toEqual([]);
  });

  it('should answer 401 without a token on every route that is not public', async () => {
    const { app } = get();
    for (const route of expectedAccess.filter((r) => r.access !== 'public')) {
      const res = await call(app, route.method, concrete(route.url), route.method === 'POST' ? {} : undefined);
      expect({ route: route.url, status: res.statusCode }).toEqual({ route: route.url, status: 401 });
    }
  });

  it('should never answer 5xx, whatever body, query or token is sent', async () => {
    const { app, db } = get();
    const session = await signIn(app, await createUser(db));
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.emailAddress(),
      fc.uuid(),
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
    );
    const fields = [
      'email',
      'password',
      'token',
      'refreshToken',
      'enteredOTP',
      'userId',
      'userIds',
      'newPassword',
      'currentPassword',
      'confirmNewPassword',
      'isFirstTimeLogin',
      'firstName',
      'lastName',
      'userName',
      'confirmPassword',
      'dateOfBirth',
      'phoneNumber',
      'redirectUrl',
      'code',
      'tenant',
    ];
    const record = fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 8 });
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...expectedAccess), fc.oneof(record, fc.anything()), record, fc.boolean(), async (route, body, query, withToken) => {
        const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
        const res = await app.inject({
          method: route.method,
          url: `${concrete(route.url)}?${search}`,
          remoteAddress: freshIp(),
          ...(route.method === 'POST' ? { payload: JSON.stringify(body) ?? 'null', headers: { 'content-type': 'application/json' } } : {}),
          ...(withToken ? { headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' } } : {}),
        });
        expect(res.statusCode, `${route.method} ${route.url} answered ${res.statusCode}: ${res.body}`).toBeLessThan(500);
      }),
      { numRuns: 150 },
    );
  });

  it('should document every identity route in the OpenAPI document with its bodies and answers', async () => {
    const { app } = get();
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    const signIn = doc.paths['/api/tokens'].post;
    expect(Object.keys(signIn.requestBody.content['application/json'].schema.properties)).toEqual(['email', 'password']);
    expect(Object.keys(signIn.responses).sort()).toEqual(['200', '400', '401', '403', '429']);
    expect(signIn.responses['200'].content['application/json'].schema.properties.resendAfterSeconds.examples).toEqual([30]);
    expect(doc.paths['/api/tokens/verifyotp'].post.responses['200'].content['application/json'].schema.required).toEqual([
      'token',
      'refreshToken',
      'refreshTokenExpiryTime',
    ]);
    expect(doc.paths['/api/users/change-password/'].post.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/users/change-password']).toBeUndefined();
    expect(doc.paths['/api/users/{userId}/invalidatepermission'].post.parameters[0]).toMatchObject({ name: 'userId', in: 'path' });
    for (const route of expectedAccess.filter((r) => !(r.url === '/api/users/change-password'))) {
      const path = doc.paths[route.url.replace(':userId', '{userId}')];
      expect(path?.[route.method.toLowerCase()]?.summary, route.url).toEqual(expect.any(String));
    }
  });
});

describeEachDatabase('password verifiers per login type', (get) => {
  it('should ask the directory verifier for directory users, with the same lockout and code steps', async () => {
    const { db, config } = get();
    const checked: CredentialSubject[] = [];
    const directory: PasswordVerifier = {
      async verify(subject, password) {
        checked.push(subject);
        return password === 'directory pass phrase';
      },
    };
    const app = await buildApp({ config, db, logger: false, runJobs: false, passwordVerifiers: { directory } });
    try {
      const user = await createUser(db, { loginType: 'directory', password: null });
      const wrong = await call(app, 'POST', '/api/tokens', { email: user.email, password: 'not it at all' });
      expect(wrong.statusCode).toBe(401);
      const failures = await db.query<{ consecutive_failures: number }>(`select consecutive_failures from sign_in_failures where user_id = $1`, [user.id]);
      expect(failures.rows[0].consecutive_failures).toBe(1);

      const challenge = await call(app, 'POST', '/api/tokens', { email: user.email, password: 'directory pass phrase' });
      expect(challenge.statusCode).toBe(200);
      expect(checked.map((s) => [s.userId, s.email, s.passwordHash])).toEqual([
        [user.id, user.email, null],
        [user.id, user.email, null],
      ]);
      const [mail] = await mailsTo(app, user.email);
      const verified = await call(app, 'POST', '/api/tokens/verifyotp', { email: user.email, enteredOTP: codeIn(mail), token: challenge.json().token });
      expect(verified.statusCode).toBe(200);

      const forgot = await call(app, 'POST', '/api/users/forgot-password', { email: user.email });
      expect(forgot.statusCode).toBe(200);
      expect((await mailsTo(app, user.email)).map((m) => m.subject)).toEqual(['Your Exam Portal sign-in code']);
    } finally {
      await app.close();
    }
  });

  it('should refuse every password of a directory user while no directory is configured', async () => {
    const { app, db } = get();
    const user = await createUser(db, { loginType: 'directory', password: 'lantern orbit velvet 42' });
    const res = await call(app, 'POST', '/api/tokens', { email: user.email, password: 'lantern orbit velvet 42' });
    expect(res.statusCode).toBe(401);
  });
});
