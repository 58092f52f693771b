import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createSignedInUser, createUser, type TestUser } from '#tests/setup/test-users.ts';
import { call, signIn } from '../identity/identity-test-kit.ts';
import { callAs } from './users-kit.ts';

const INSTITUTE_A = '0a0a0a0a-0000-4000-8000-00000000000a';

describeEachDatabase('login history and user languages', (get) => {
  let admin: TestUser & { token: string };
  beforeAll(async () => {
    admin = await createSignedInUser(get().app, { roles: ['Admin'], userType: 'platform' });
  });

  it('should show a user their own sign-ins and failures with time, outcome, IP and user agent', async () => {
    const { app, db } = get();
    const user = await createUser(db);
    await call(
      app,
      'POST',
      '/api/tokens',
      { email: user.email, password: 'wrong password 1234' },
      { ip: '192.0.2.7', headers: { 'user-agent': 'HistoryTest/1.0' } },
    );
    const session = await signIn(app, user, '192.0.2.8');
    const me = { ...user, token: session.token };
    const res = await callAs(app, me, 'POST', '/api/v1/userloginhistory', { pageNumber: 1, pageSize: 10 });
    expect(res.statusCode).toBe(200);
    const page = res.json();
    expect(page).toMatchObject({ totalCount: 2, currentPage: 1, totalPages: 1 });
    expect(page.data[0]).toMatchObject({ event: 'login', outcome: 'success', ipAddress: '192.0.2.8', userId: user.id, email: user.email });
    expect(page.data[1]).toMatchObject({
      event: 'loginFailed',
      outcome: 'failure',
      reason: 'invalidPassword',
      ipAddress: '192.0.2.7',
      userAgent: 'HistoryTest/1.0',
    });
    expect(new Date(page.data[0].time).getTime()).toBeGreaterThanOrEqual(new Date(page.data[1].time).getTime());
    const failures = (await callAs(app, me, 'POST', '/api/v1/userloginhistory/searchbyuserid', { userId: user.id, event: 'loginFailed' })).json();
    expect(failures.totalCount).toBe(1);
    const adminView = (await callAs(app, admin, 'POST', '/api/v1/userloginhistory/search', { userId: user.id })).json();
    expect(adminView.totalCount).toBe(2);
    const byKeyword = (await callAs(app, admin, 'POST', '/api/v1/userloginhistory/search', { keyword: '192.0.2.7' })).json();
    expect(byKeyword.data.map((r: { email: string }) => r.email)).toContain(user.email);
  });

  it("should answer 404 when a user of the same role asks for another user's login history or languages", async () => {
    const { app } = get();
    const a = await createSignedInUser(app, { roles: ['Candidate'] });
    const b = await createSignedInUser(app, { roles: ['Candidate'] });
    const added = await callAs(app, b, 'POST', '/api/v1/userlanguage', { languageCode: 'gu' });
    expect(added.statusCode).toBe(201);
    const notFound = [
      await callAs(app, a, 'POST', '/api/v1/userloginhistory/searchbyuserid', { userId: b.id }),
      await callAs(app, a, 'POST', '/api/v1/userloginhistory', { userId: b.id }),
      await callAs(app, a, 'POST', '/api/v1/userlanguage/search', { userId: b.id }),
      await callAs(app, a, 'POST', '/api/v1/userlanguage', { userId: b.id, languageCode: 'fr' }),
      await callAs(app, a, 'DELETE', `/api/v1/userlanguage/${added.json().id}`),
    ];
    expect(notFound.map((r) => r.statusCode)).toEqual([404, 404, 404, 404, 404]);
    expect((await callAs(app, a, 'POST', '/api/v1/userloginhistory/search', {})).statusCode).toBe(403);
    expect((await callAs(app, b, 'POST', '/api/v1/userlanguage/search', {})).json()).toHaveLength(1);
  });

  it('should keep a scoped administrator to the login history of their institute', async () => {
    const { app, db } = get();
    const scopedAdmin = await createSignedInUser(app, { roles: ['Admin'], instituteId: INSTITUTE_A });
    const inside = await createUser(db, { instituteId: INSTITUTE_A });
    const outside = await createUser(db);
    await signIn(app, inside);
    await signIn(app, outside);
    const rows = (await callAs(app, scopedAdmin, 'POST', '/api/v1/userloginhistory/search', { pageSize: 100 })).json();
    const users = new Set(rows.data.map((r: { userId: string }) => r.userId));
    expect(users.has(inside.id)).toBe(true);
    expect(users.has(outside.id)).toBe(false);
    expect((await callAs(app, scopedAdmin, 'POST', '/api/v1/userloginhistory/searchbyuserid', { userId: outside.id })).statusCode).toBe(404);
    expect((await callAs(app, scopedAdmin, 'POST', '/api/v1/userloginhistory/searchbyuserid', { userId: inside.id })).json().totalCount).toBe(1);
  });

  it('should add, list and remove languages, normalise tags, refuse duplicates and malformed tags', async () => {
    const { app } = get();
    const user = await createSignedInUser(app, { roles: ['Candidate'] });
    const add = (languageCode: string) => callAs(app, user, 'POST', '/api/v1/userlanguage', { languageCode });
    const hindi = await add('HI');
    expect(hindi.json()).toMatchObject({ userId: user.id, languageCode: 'hi' });
    expect((await add('en-in')).json().languageCode).toBe('en-IN');
    const duplicate = await add('hi');
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().messages).toEqual(["hi is already one of the user's languages."]);
    expect((await add('<script>')).statusCode).toBe(400);
    const list = (await callAs(app, user, 'POST', '/api/v1/userlanguage/search', { userId: user.id })).json();
    expect(list.map((l: { languageCode: string }) => l.languageCode)).toEqual(['hi', 'en-IN']);
    expect((await callAs(app, user, 'DELETE', `/api/v1/userlanguage/${hindi.json().id}`)).statusCode).toBe(204);
    expect((await callAs(app, user, 'DELETE', `/api/v1/userlanguage/${randomUUID()}`)).statusCode).toBe(404);
    const after = (await callAs(app, admin, 'POST', '/api/v1/userlanguage/search', { userId: user.id })).json();
    expect(after.map((l: { languageCode: string }) => l.languageCode)).toEqual(['en-IN']);
    const byAdmin = await callAs(app, admin, 'POST', '/api/v1/userlanguage', { userId: user.id, languageCode: 'fr' });
    expect(byAdmin.statusCode).toBe(201);
  });
});
