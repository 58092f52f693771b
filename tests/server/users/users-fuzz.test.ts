import fc from 'fast-check';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser, createUser } from '#tests/setup/test-users.ts';
import { routeMatrix } from './route-matrix.ts';

/** The routes of issue 6 (users, roles, history, languages, directory, bulk). */
const usersRoutes = routeMatrix.filter(
  ([, url]) =>
    (url.startsWith('/api/users') && !/invalidatepermission|password|validateemail|resend|confirm-email|firsttime|invitation|self-register/.test(url)) ||
    url.startsWith('/api/roles') ||
    url.startsWith('/api/v1/userloginhistory') ||
    url.startsWith('/api/v1/userlanguage'),
);

describeEachDatabase('users routes under generated input', (get) => {
  it('should never answer 5xx to any body, query or path an administrator sends', async () => {
    const { app, db } = get();
    const admin = await createSignedInUser(app, { roles: ['Admin'] });
    const target = await createUser(db);
    expect(usersRoutes).toHaveLength(27);
    const value = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.emailAddress(),
      fc.uuid(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant('__proto__'),
      fc.constant('=cmd|/c calc'),
      fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
      fc.array(fc.uuid(), { maxLength: 3 }),
      fc.record({ keyword: fc.string({ maxLength: 10 }), fields: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }) }),
    );
    const fields = [
      'userId',
      'id',
      'userIds',
      'firstName',
      'lastName',
      'email',
      'userName',
      'password',
      'confirmPassword',
      'phoneNumber',
      'dateOfBirth',
      'roleId',
      'loginType',
      'isSendInvitation',
      'redirectUrl',
      'isFirstTimeLogin',
      'userType',
      'instituteId',
      'resellerId',
      'userRoles',
      'activateUser',
      'activateEmail',
      'keyword',
      'advancedSearch',
      'pageNumber',
      'pageSize',
      'orderBy',
      'isActive',
      'emailConfirmed',
      'event',
      'languageCode',
      'jobId',
      'state',
      '__proto__',
      'constructor',
    ];
    const record = fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 8 });
    const pathId = fc.oneof(fc.uuid(), fc.constant(target.id), fc.constant(admin.id), fc.string({ maxLength: 12 }).map(encodeURIComponent));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...usersRoutes), fc.oneof(record, fc.anything()), record, pathId, async ([method, url], body, query, id) => {
        const search = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
        const path = url.replace(':id', id || 'x');
        // Never deactivate the caller's own session mid-run by accident: the answer for that is a 409.
        const res = await app.inject({
          method: method as 'GET',
          url: `${path}?${search}`,
          headers: { ...as(admin), 'content-type': 'application/json' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: JSON.stringify(body) ?? 'null' }),
        });
        expect(res.statusCode, `${method} ${path} answered ${res.statusCode}: ${res.body}`).toBeLessThan(500);
      }),
      { numRuns: 300 },
    );
  }, 120_000);
});
