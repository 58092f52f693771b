import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { allPermissions, P } from '#machines/permissions.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser, createUser, GOOD_PASSWORD, uniqueEmail, type TestUser } from '#tests/setup/test-users.ts';
import { linkIn, mailsTo, signIn } from '../identity/identity-test-kit.ts';
import { callAs, createRole, createTenant, roleId } from './users-kit.ts';

const INSTITUTE_A = '0a0a0a0a-0000-4000-8000-00000000000a';
const INSTITUTE_B = '0b0b0b0b-0000-4000-8000-00000000000b';

describeEachDatabase('users API', (get) => {
  let admin: TestUser & { token: string };
  beforeAll(async () => {
    admin = await createSignedInUser(get().app, { roles: ['Admin'], userType: 'platform', firstName: 'Root', lastName: 'Admin' });
  });
  const newUser = (overrides: Record<string, unknown> = {}) => {
    const email = uniqueEmail('created');
    return { firstName: 'Meera', lastName: 'Shah', email, userName: email.split('@')[0], ...overrides };
  };

  it('should create a user with an invitation that the invitee uses to choose a password and sign in', async () => {
    const { app } = get();
    const body = newUser({ isSendInvitation: true, redirectUrl: '/exams' });
    const res = await callAs(app, admin, 'POST', '/api/users', body);
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created).toMatchObject({
      email: body.email,
      loginType: 'local',
      isActive: true,
      emailConfirmed: false,
      isFirstTimeLogin: true,
      roles: [{ roleName: 'Candidate' }],
    });
    expect(created).not.toHaveProperty('passwordHash');
    const [mail] = await mailsTo(app, body.email);
    const link = linkIn(mail);
    expect(link.pathname).toBe('/first-login');
    expect(link.searchParams.get('redirectUrl')).toBe('/exams');
    const reset = await app.inject({
      method: 'POST',
      url: '/api/users/reset-password',
      payload: { email: body.email, password: GOOD_PASSWORD, token: link.searchParams.get('token'), isFirstTimeLogin: true },
    });
    expect(reset.statusCode).toBe(200);
    const session = await signIn(app, { email: body.email, password: GOOD_PASSWORD });
    expect(session.token).toMatch(/^ey/);
  });

  it('should refuse a weak password, a mismatch, a missing password, a taken e-mail or user name and an unknown role with field errors', async () => {
    const { app } = get();
    const weak = await callAs(app, admin, 'POST', '/api/users', newUser({ password: 'password123', confirmPassword: 'password123' }));
    expect(weak.statusCode).toBe(400);
    expect(Object.keys(weak.json().errors)).toEqual(['password']);
    const mismatch = await callAs(app, admin, 'POST', '/api/users', newUser({ password: GOOD_PASSWORD, confirmPassword: 'other' }));
    expect(mismatch.json().errors).toEqual({ confirmPassword: ['The passwords do not match.'] });
    const none = await callAs(app, admin, 'POST', '/api/users', newUser());
    expect(none.json().errors).toEqual({ password: ['Set a password (with confirmPassword) or send an invitation.'] });
    const taken = await callAs(
      app,
      admin,
      'POST',
      '/api/users',
      newUser({ email: admin.email.toUpperCase(), userName: admin.userName, isSendInvitation: true }),
    );
    expect(taken.statusCode).toBe(400);
    expect(taken.json().errors).toEqual({
      email: ['An account with this e-mail address already exists.'],
      userName: ['This user name is already taken.'],
    });
    const role = await callAs(app, admin, 'POST', '/api/users', newUser({ isSendInvitation: true, roleId: randomUUID() }));
    expect(role.json().errors).toEqual({ roleId: ['The role was not found.'] });
    const badEmail = await callAs(app, admin, 'POST', '/api/users', newUser({ email: 'not-an-email', isSendInvitation: true }));
    expect(badEmail.statusCode).toBe(400);
    expect(badEmail.json().errors.email).toHaveLength(1);
  });

  it('should create a user with a password and a chosen role, and mail a confirmation link', async () => {
    const { app, db } = get();
    const body = newUser({
      password: GOOD_PASSWORD,
      confirmPassword: GOOD_PASSWORD,
      roleId: await roleId(db, 'SupportAgent'),
      phoneNumber: '+91 98765 43210',
      dateOfBirth: '1990-04-01',
    });
    const res = await callAs(app, admin, 'POST', '/api/users', body);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      roles: [{ roleName: 'SupportAgent' }],
      isFirstTimeLogin: true,
      phoneNumber: '+91 98765 43210',
      dateOfBirth: '1990-04-01',
    });
    const [mail] = await mailsTo(app, body.email);
    expect(linkIn(mail).pathname).toBe('/confirm-email');
    const future = await callAs(app, admin, 'POST', '/api/users', newUser({ isSendInvitation: true, dateOfBirth: '2999-01-01' }));
    expect(future.json().errors).toEqual({ dateOfBirth: ['The date of birth cannot be in the future.'] });
  });

  it('should page a keyword search with totalCount counting the filtered rows, sort by an allowed field and refuse others', async () => {
    const { app, db } = get();
    const marker = `Zephyr${Date.now() % 100000}`;
    for (const [first, active] of [
      ['Anil', true],
      ['Bina', true],
      ['Chetan', false],
    ] as const) {
      await createUser(db, { firstName: first, lastName: marker, isActive: active });
    }
    const search = (body: Record<string, unknown>) => callAs(app, admin, 'POST', '/api/users/search', body);
    const page1 = (await search({ keyword: marker.toLowerCase(), pageSize: 2, pageNumber: 1, orderBy: ['firstName desc'] })).json();
    expect(page1).toMatchObject({ totalCount: 3, totalPages: 2, currentPage: 1, pageSize: 2, hasPreviousPage: false, hasNextPage: true });
    expect(page1.data.map((u: { firstName: string }) => u.firstName)).toEqual(['Chetan', 'Bina']);
    const page2 = (await search({ advancedSearch: { keyword: marker, fields: ['lastName'] }, pageSize: 2, pageNumber: 2, orderBy: ['firstName desc'] })).json();
    expect(page2).toMatchObject({ totalCount: 3, hasPreviousPage: true, hasNextPage: false });
    expect(page2.data.map((u: { firstName: string }) => u.firstName)).toEqual(['Anil']);
    expect((await search({ keyword: marker, isActive: false })).json()).toMatchObject({ totalCount: 1, data: [{ firstName: 'Chetan' }] });
    // null is "any", never coerced to false.
    expect((await search({ keyword: marker, isActive: null, emailConfirmed: null })).json().totalCount).toBe(3);
    expect((await search({ advancedSearch: { keyword: marker, fields: ['email'] } })).json().totalCount).toBe(0);
    expect((await search({ keyword: '%' })).json().totalCount).toBe(0);
    const roleFiltered = (await search({ keyword: marker, roleId: await roleId(db, 'Candidate') })).json();
    expect(roleFiltered.totalCount).toBe(3);
    const badOrder = await search({ orderBy: ['passwordHash'] });
    expect(badOrder.statusCode).toBe(400);
    expect(badOrder.json().errors.orderBy[0]).toContain('firstName, lastName, email, userName, createdOn');
    const tooBig = await search({ pageSize: 101 });
    expect(tooBig.statusCode).toBe(400);
  });

  it('should get one user and answer 404 for an unknown id and 400 for a malformed one', async () => {
    const { app, db } = get();
    const user = await createUser(db, { firstName: 'Ravi' });
    const res = await callAs(app, admin, 'GET', `/api/users/${user.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ id: user.id, firstName: 'Ravi', email: user.email });
    expect(JSON.stringify(res.json())).not.toContain('argon2');
    expect((await callAs(app, admin, 'GET', `/api/users/${randomUUID()}`)).statusCode).toBe(404);
    expect((await callAs(app, admin, 'GET', '/api/users/not-a-uuid')).statusCode).toBe(400);
  });

  it('should edit profile fields only: status, scope, roles and confirmation sent to edituser change nothing', async () => {
    const { app, db } = get();
    const user = await createUser(db, { firstName: 'Old' });
    const res = await callAs(app, admin, 'PUT', '/api/users/edituser', {
      id: user.id,
      firstName: 'New',
      isActive: false,
      emailConfirmed: false,
      instituteId: INSTITUTE_A,
      roleId: await roleId(db, 'Admin'),
      tenantId: 'other',
      userType: 'platform',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      firstName: 'New',
      isActive: true,
      emailConfirmed: true,
      instituteId: null,
      userType: 'candidate',
      roles: [{ roleName: 'Candidate' }],
    });
    const moved = await callAs(app, admin, 'PUT', '/api/users/edituser', { userId: user.id, email: uniqueEmail('moved') });
    expect(moved.json()).toMatchObject({ emailConfirmed: false });
    const [mail] = await mailsTo(app, moved.json().email);
    expect(linkIn(mail).pathname).toBe('/confirm-email');
    const missing = await callAs(app, admin, 'PUT', '/api/users/edituser', { firstName: 'X' });
    expect(missing.json().errors).toEqual({ id: ['The id field is required.'] });
  });

  it('should list and set roles, apply them to the next request, and refuse own roles and roles beyond the caller', async () => {
    const { app, db } = get();
    const user = await createSignedInUser(app, { roles: ['Candidate'] });
    const roles = (await callAs(app, admin, 'GET', `/api/users/${user.id}/roles`)).json();
    expect(roles.map((r: { roleName: string }) => r.roleName)).toEqual([
      'Admin',
      'Candidate',
      'ExamManager',
      'ExamStaff',
      'SupportAdmin',
      'SupportAgent',
      'Tester',
    ]);
    expect(roles.filter((r: { enabled: boolean }) => r.enabled).map((r: { roleName: string }) => r.roleName)).toEqual(['Candidate']);
    const agent = await roleId(db, 'SupportAgent');
    const set = await callAs(app, admin, 'POST', `/api/users/${user.id}/roles`, { userRoles: [{ roleId: agent, enabled: true }] });
    expect(set.statusCode).toBe(200);
    const permissions = (await app.inject({ method: 'GET', url: '/api/personal/permissions', headers: as(user) })).json();
    expect(permissions).toContain(P.SupportTickets.Work);
    const active = (await callAs(app, user, 'GET', `/api/users/${user.id}/activeroles`)).json();
    expect(active.map((r: { roleName: string }) => r.roleName)).toEqual(['Candidate', 'SupportAgent']);

    const own = await callAs(app, admin, 'POST', `/api/users/${admin.id}/roles`, { userRoles: [{ roleId: agent, enabled: true }] });
    expect(own.statusCode).toBe(403);
    expect(own.json().messages).toEqual(['You cannot change your own roles.']);

    const managerRole = await createRole(db, `UserManager${Date.now()}`, [
      P.Users.View,
      P.Users.Search,
      P.Users.Update,
      P.UserRoles.View,
      P.UserRoles.Update,
      P.Dashboard.View,
      P.SupportTickets.Create,
      P.SupportTickets.View,
      P.SupportChat.Use,
    ]);
    const manager = await createSignedInUser(app, { roles: [] });
    await db.query(`insert into user_roles (user_id, role_id) values ($1, $2)`, [manager.id, managerRole]);
    // A plain candidate: the SupportAgent above holds permissions the manager lacks (issue 23 rule 1).
    const managed = await createUser(db, { roles: ['Candidate'] });
    const escalate = await callAs(app, manager, 'POST', `/api/users/${managed.id}/roles`, {
      userRoles: [{ roleId: await roleId(db, 'Admin'), enabled: true }],
    });
    expect(escalate.statusCode).toBe(403);
    expect(escalate.json().messages).toEqual(['You cannot grant or remove a role that has permissions you do not have.']);
    const allowed = await callAs(app, manager, 'POST', `/api/users/${managed.id}/roles`, {
      userRoles: [{ roleId: await roleId(db, 'Candidate'), enabled: false }],
    });
    expect(allowed.statusCode).toBe(200);
    const beyond = await callAs(app, manager, 'POST', `/api/users/${user.id}/roles`, {
      userRoles: [{ roleId: await roleId(db, 'Candidate'), enabled: false }],
    });
    expect(beyond.statusCode).toBe(403);
    const unknown = await callAs(app, admin, 'POST', `/api/users/${user.id}/roles`, { userRoles: [{ roleId: randomUUID(), enabled: true }] });
    expect(unknown.statusCode).toBe(400);
  });

  it("should answer 404 for another user's active roles without Permissions.UserRoles.View", async () => {
    const { app } = get();
    const a = await createSignedInUser(app, { roles: ['Candidate'] });
    const b = await createSignedInUser(app, { roles: ['Candidate'] });
    expect((await callAs(app, a, 'GET', `/api/users/${b.id}/activeroles`)).statusCode).toBe(404);
    expect((await callAs(app, admin, 'GET', `/api/users/${b.id}/activeroles`)).json()).toEqual([expect.objectContaining({ roleName: 'Candidate' })]);
  });

  it('should end every session of a deactivated user at once and record it, and refuse deactivating oneself', async () => {
    const { app, db } = get();
    const user = await createUser(db, { roles: ['Candidate'] });
    const session = await signIn(app, user);
    const me = () => app.inject({ method: 'GET', url: '/api/personal/permissions', headers: { authorization: `Bearer ${session.token}` } });
    expect((await me()).statusCode).toBe(200);
    const off = await callAs(app, admin, 'POST', `/api/users/${user.id}/toggle-status`, { userId: user.id, activateUser: false });
    expect(off.json()).toMatchObject({ userId: user.id, isActive: false, message: 'The user has been deactivated and signed out everywhere.' });
    expect((await me()).statusCode).toBe(401);
    const refresh = await app.inject({ method: 'POST', url: '/api/tokens/refresh', payload: { token: session.token, refreshToken: session.refreshToken } });
    expect(refresh.statusCode).toBe(401);
    const { rows } = await db.query<{ event: string; reason: string }>(
      `select event, reason from login_history where user_id = $1 order by occurred_at desc limit 1`,
      [user.id],
    );
    expect(rows[0]).toEqual({ event: 'sessionRevoked', reason: 'deactivated' });
    const on = await callAs(app, admin, 'POST', `/api/users/${user.id}/toggle-status`, { activateUser: true });
    expect(on.json()).toMatchObject({ isActive: true });
    expect((await me()).statusCode).toBe(401);
    const self = await callAs(app, admin, 'POST', `/api/users/${admin.id}/toggle-status`, { activateUser: false });
    expect(self.statusCode).toBe(409);
    const mismatch = await callAs(app, admin, 'POST', `/api/users/${user.id}/toggle-status`, { userId: randomUUID(), activateUser: true });
    expect(mismatch.statusCode).toBe(400);
  });

  it('should confirm and unconfirm an e-mail', async () => {
    const { app, db } = get();
    const user = await createUser(db, { emailConfirmed: false });
    const on = await callAs(app, admin, 'POST', `/api/users/${user.id}/toggle-email-status`, { activateEmail: true, userId: user.id });
    expect(on.json()).toMatchObject({ emailConfirmed: true, message: 'The e-mail address is now confirmed.' });
    const off = await callAs(app, admin, 'POST', `/api/users/${user.id}/toggle-email-status`, { activateEmail: false });
    expect(off.json()).toMatchObject({ emailConfirmed: false });
    expect((await callAs(app, admin, 'GET', `/api/users/${user.id}`)).json().emailConfirmed).toBe(false);
  });

  it('should list users by ids, leaving out unknown ones, and search roles with their permissions', async () => {
    const { app, db } = get();
    const a = await createUser(db, { firstName: 'Aarav' });
    const b = await createUser(db, { firstName: 'Bela' });
    const list = (await callAs(app, admin, 'POST', '/api/users/userlistbyuserids', { userIds: [b.id, a.id, randomUUID()] })).json();
    expect(list.map((u: { id: string }) => u.id)).toEqual([a.id, b.id]);
    const roles = (await callAs(app, admin, 'POST', '/api/roles/search', { keyword: 'support', orderBy: ['name'] })).json();
    // Candidate's description mentions support tickets.
    expect(roles.totalCount).toBe(3);
    expect(roles.data.map((r: { name: string }) => r.name)).toEqual(['Candidate', 'SupportAdmin', 'SupportAgent']);
    expect(roles.data[2].permissions).toContain(P.SupportTickets.Work);
    const all = (await callAs(app, admin, 'POST', '/api/roles/search', {})).json();
    expect(all.data.find((r: { name: string }) => r.name === 'Admin').permissions).toEqual([...allPermissions].sort());
  });

  it('should keep an institute administrator to the users of their institute', async () => {
    const { app, db } = get();
    const instituteAdmin = await createSignedInUser(app, { roles: ['Admin'], instituteId: INSTITUTE_A, userType: 'institute' });
    const mine = await createUser(db, { instituteId: INSTITUTE_A, lastName: 'Scoped' });
    const theirs = await createUser(db, { instituteId: INSTITUTE_B, lastName: 'Scoped' });
    const found = (await callAs(app, instituteAdmin, 'POST', '/api/users/search', { keyword: 'scoped', pageSize: 100 })).json();
    expect(found.data.map((u: { id: string }) => u.id)).toEqual([mine.id]);
    expect(found.totalCount).toBe(1);
    expect((await callAs(app, instituteAdmin, 'GET', `/api/users/${theirs.id}`)).statusCode).toBe(404);
    expect((await callAs(app, instituteAdmin, 'POST', `/api/users/${theirs.id}/toggle-status`, { activateUser: false })).statusCode).toBe(404);
    expect((await callAs(app, instituteAdmin, 'PUT', '/api/users/edituser', { id: theirs.id, firstName: 'X' })).statusCode).toBe(404);
    expect((await callAs(app, instituteAdmin, 'GET', `/api/users/${theirs.id}/roles`)).statusCode).toBe(404);
    const list = (await callAs(app, instituteAdmin, 'POST', '/api/users/userlistbyuserids', { userIds: [mine.id, theirs.id] })).json();
    expect(list.map((u: { id: string }) => u.id)).toEqual([mine.id]);
    const created = await callAs(app, instituteAdmin, 'POST', '/api/users', newUser({ isSendInvitation: true }));
    expect(created.json().instituteId).toBe(INSTITUTE_A);
    const elsewhere = await callAs(app, instituteAdmin, 'POST', '/api/users', newUser({ isSendInvitation: true, instituteId: INSTITUTE_B }));
    expect(elsewhere.json().errors).toEqual({ instituteId: ['You can only manage users of your own institute or reseller.'] });
    expect((await callAs(app, admin, 'GET', `/api/users/${theirs.id}`)).statusCode).toBe(200);
  });

  it('should show an administrator of another tenant nothing of root, whatever tenant header is sent', async () => {
    const { app, db } = get();
    await createTenant(db, 'acme', allPermissions);
    const acmeAdmin = await createSignedInUser(app, { roles: ['Admin'], tenantId: 'acme' });
    const headers = { ...as(acmeAdmin), tenant: 'root' };
    const search = (await app.inject({ method: 'POST', url: '/api/users/search', headers, payload: { pageSize: 100 } })).json();
    expect(search.data.map((u: { id: string }) => u.id)).toEqual([acmeAdmin.id]);
    expect((await app.inject({ method: 'GET', url: `/api/users/${admin.id}`, headers })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: `/api/users/${admin.id}/toggle-status`, headers, payload: { activateUser: false } })).statusCode).toBe(404);
    const roles = (await app.inject({ method: 'POST', url: '/api/roles/search', headers, payload: {} })).json();
    expect(roles.data.map((r: { name: string }) => r.name)).toEqual(['Admin', 'Candidate']);
    const assign = await app.inject({
      method: 'POST',
      url: `/api/users/${acmeAdmin.id}/roles`,
      headers,
      payload: { userRoles: [{ roleId: await roleId(db, 'Admin'), enabled: true }] },
    });
    expect(assign.statusCode).toBe(403);
  });

  it('should count exactly from the kept counters after inserts, status and e-mail changes, scope changes and deletes', async () => {
    const { app, db } = get();
    const a = await createUser(db, { instituteId: INSTITUTE_A });
    const b = await createUser(db, { emailConfirmed: false });
    const c = await createUser(db);
    await callAs(app, admin, 'POST', `/api/users/${a.id}/toggle-status`, { activateUser: false });
    await callAs(app, admin, 'POST', `/api/users/${b.id}/toggle-email-status`, { activateEmail: true });
    await db.query(`update users set institute_id = $2 where id = $1`, [c.id, INSTITUTE_A]);
    await db.query(`update users set token_version = token_version + 1, updated_at = now() where id = $1`, [c.id]);
    const gone = await createUser(db, { isActive: false });
    await db.query(`delete from users where id = $1`, [gone.id]);
    const scoped = await createSignedInUser(app, { roles: ['Admin'], instituteId: INSTITUTE_A });
    for (const filters of [{}, { isActive: true }, { isActive: false }, { emailConfirmed: false }, { isActive: false, emailConfirmed: true }]) {
      for (const [caller, institute] of [
        [admin, null],
        [scoped, INSTITUTE_A],
      ] as const) {
        const api = (await callAs(app, caller, 'POST', '/api/users/search', filters)).json().totalCount;
        const { rows } = await db.query<{ n: number }>(
          `select count(*)::int as n from users where tenant_id = 'root' and ($1::uuid is null or institute_id = $1)
             and ($2::boolean is null or is_active = $2) and ($3::boolean is null or email_confirmed = $3)`,
          [institute, filters.isActive ?? null, filters.emailConfirmed ?? null],
        );
        expect({ filters, institute, count: api }).toEqual({ filters, institute, count: rows[0].n });
      }
    }
  });

  it('should document every users route in the OpenAPI document with a summary', async () => {
    const { app } = get();
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const routes: Array<[string, string]> = [
      ['post', '/api/users/search'],
      ['post', '/api/users'],
      ['get', '/api/users/{id}'],
      ['put', '/api/users/edituser'],
      ['get', '/api/users/{id}/roles'],
      ['post', '/api/users/{id}/roles'],
      ['get', '/api/users/{id}/activeroles'],
      ['post', '/api/users/{id}/toggle-status'],
      ['post', '/api/users/{id}/toggle-email-status'],
      ['post', '/api/roles/search'],
      ['post', '/api/users/userlistbyuserids'],
      ['get', '/api/users/getusersfromad'],
      ['post', '/api/users/searchusersfromad'],
      ['post', '/api/v1/userloginhistory/search'],
      ['post', '/api/v1/userloginhistory'],
      ['post', '/api/v1/userloginhistory/searchbyuserid'],
      ['post', '/api/v1/userlanguage'],
      ['post', '/api/v1/userlanguage/search'],
      ['delete', '/api/v1/userlanguage/{id}'],
      ['post', '/api/users/downloadusertemplate'],
      ['post', '/api/users/uploadusers'],
      ['post', '/api/users/searchuploadedjobstatus'],
      ['post', '/api/users/downloaderrorfile'],
      ['post', '/api/users/downloaduserlist'],
    ];
    for (const [method, path] of routes) expect(doc.paths[path]?.[method]?.summary, `${method} ${path}`).toEqual(expect.any(String));
    const page = doc.paths['/api/users/search'].post.responses['200'].content['application/json'].schema;
    expect(Object.keys(page.properties)).toEqual(['data', 'currentPage', 'totalPages', 'totalCount', 'pageSize', 'hasPreviousPage', 'hasNextPage']);
  });
});
