import { randomUUID } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { P } from '#machines/permissions.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { callAs, roleId } from './users-kit.ts';

/**
 * Issue 23, authorization rules 1 and 2, through a role made over HTTP (role management):
 * a user manager can act only on users whose permissions are a subset of their own, never on
 * their own activation, e-mail confirmation or roles; signing another user out is limited the
 * same way and answers as for an unknown id when out of reach.
 */
describeEachDatabase('what a user manager may do to whom', (get) => {
  let admin: TestUser;
  let manager: TestUser;
  let candidate: TestUser;
  let managerRoleId: string;

  beforeAll(async () => {
    const { app } = get();
    admin = await createSignedInUser(app, { roles: ['Admin'] });
    candidate = await createSignedInUser(app, { roles: ['Candidate'] });
    manager = await createSignedInUser(app, { roles: ['Candidate'] });
    const created = await callAs(app, admin, 'POST', '/api/roles', {
      name: 'User manager',
      description: 'Looks after accounts',
      permissions: [P.Dashboard.View, P.Users.View, P.Users.Search, P.Users.Create, P.Users.Update, P.UserRoles.View, P.UserRoles.Update],
    });
    expect(created.statusCode, created.body).toBe(201);
    managerRoleId = created.json().id;
    expect(created.json()).toMatchObject({ name: 'User manager', isSystem: false, userCount: 0 });
    const granted = await callAs(app, admin, 'POST', `/api/users/${manager.id}/roles`, { userRoles: [{ roleId: managerRoleId, enabled: true }] });
    expect(granted.statusCode, granted.body).toBe(200);
  });

  it('should refuse to edit, deactivate, confirm, reset or invite an Admin, and allow it for a candidate', async () => {
    const { app } = get();
    const takeOver = await callAs(app, manager, 'PUT', '/api/users/edituser', { id: admin.id, email: `taken-${randomUUID()}@example.test` });
    expect(takeOver.statusCode).toBe(403);
    expect(takeOver.json().messages).toEqual(['You cannot manage a user who holds permissions you do not have.']);
    expect((await callAs(app, manager, 'POST', `/api/users/${admin.id}/toggle-status`, { activateUser: false })).statusCode).toBe(403);
    expect((await callAs(app, manager, 'POST', `/api/users/${admin.id}/toggle-email-status`, { activateEmail: false })).statusCode).toBe(403);
    expect((await callAs(app, manager, 'POST', '/api/users/updatefirsttimelogin', { userId: admin.id, isFirstTimeLogin: true })).statusCode).toBe(403);
    const invite = await callAs(app, manager, 'POST', '/api/users/sendinvitationorconfirmation', { userIds: [admin.id] });
    expect(invite.json().results).toEqual([{ userId: admin.id, outcome: 'notFound' }]);
    const rolesOfAdmin = await callAs(app, manager, 'POST', `/api/users/${admin.id}/roles`, {
      userRoles: [{ roleId: await roleId(app.db, 'Candidate'), enabled: true }],
    });
    expect(rolesOfAdmin.statusCode).toBe(403);
    const { rows } = await app.db.query<{ email: string; is_active: boolean }>(`select email, is_active from users where id = $1`, [admin.id]);
    expect(rows[0]).toEqual({ email: admin.email, is_active: true });

    const edited = await callAs(app, manager, 'PUT', '/api/users/edituser', { id: candidate.id, firstName: 'Renamed' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await callAs(app, manager, 'POST', `/api/users/${candidate.id}/toggle-email-status`, { activateEmail: true })).statusCode).toBe(200);
    expect((await callAs(app, manager, 'POST', '/api/users/updatefirsttimelogin', { userId: candidate.id, isFirstTimeLogin: false })).statusCode).toBe(200);
  });

  it('should never let the manager change their own activation, e-mail confirmation or roles', async () => {
    const { app } = get();
    expect((await callAs(app, manager, 'POST', `/api/users/${manager.id}/toggle-status`, { activateUser: true })).statusCode).toBe(409);
    const ownEmail = await callAs(app, manager, 'POST', `/api/users/${manager.id}/toggle-email-status`, { activateEmail: true });
    expect(ownEmail.statusCode).toBe(403);
    expect(ownEmail.json().messages).toEqual(['You cannot confirm or unconfirm your own e-mail address.']);
    expect((await callAs(app, manager, 'POST', `/api/users/${manager.id}/roles`, { userRoles: [{ roleId: managerRoleId, enabled: false }] })).statusCode).toBe(
      403,
    );
  });

  it('should sign out only oneself or a user within reach, answering 404 alike for out of reach and unknown ids', async () => {
    const { app } = get();
    const unknown = await callAs(app, manager, 'POST', `/api/users/${randomUUID()}/invalidatepermission`, {});
    const outOfReach = await callAs(app, manager, 'POST', `/api/users/${admin.id}/invalidatepermission`, {});
    expect(unknown.statusCode).toBe(404);
    expect(outOfReach.statusCode).toBe(404);
    expect(outOfReach.json().messages).toEqual(unknown.json().messages);
    expect((await app.inject({ method: 'GET', url: '/api/personal/permissions', headers: { authorization: `Bearer ${admin.token}` } })).statusCode).toBe(200);

    // An institute's administrator cannot sign out a user of another institute, nor the root admin.
    const institute = randomUUID();
    const instituteAdmin = await createSignedInUser(app, { roles: ['Admin'], instituteId: institute });
    const elsewhere = await createSignedInUser(app, { roles: ['Candidate'], instituteId: randomUUID() });
    const own = await createSignedInUser(app, { roles: ['Candidate'], instituteId: institute });
    expect((await callAs(app, instituteAdmin, 'POST', `/api/users/${elsewhere.id}/invalidatepermission`, {})).statusCode).toBe(404);
    expect((await callAs(app, instituteAdmin, 'POST', `/api/users/${admin.id}/invalidatepermission`, {})).statusCode).toBe(404);
    expect((await callAs(app, instituteAdmin, 'POST', `/api/users/${own.id}/invalidatepermission`, {})).statusCode).toBe(200);

    // Someone without Users.Update: 404 for anyone else too, 200 for themselves.
    expect((await callAs(app, candidate, 'POST', `/api/users/${own.id}/invalidatepermission`, {})).statusCode).toBe(404);
    const signedOutByManager = await createSignedInUser(app, { roles: ['Candidate'] });
    expect((await callAs(app, manager, 'POST', `/api/users/${signedOutByManager.id}/invalidatepermission`, {})).statusCode).toBe(200);
    expect((await callAs(app, own, 'POST', `/api/users/${own.id}/invalidatepermission`, {})).statusCode).toBe(401);
    expect((await callAs(app, candidate, 'POST', `/api/users/${candidate.id}/invalidatepermission`, {})).statusCode).toBe(200);
  });

  it('should manage custom roles without ever granting more than the caller holds', async () => {
    const { app } = get();
    const roleMaker = await createSignedInUser(app, { roles: ['Candidate'] });
    const makerRole = await callAs(app, admin, 'POST', '/api/roles', { name: 'Role maker', permissions: [P.Roles.View, P.Roles.Manage, P.Users.View] });
    expect(makerRole.statusCode).toBe(201);
    await callAs(app, admin, 'POST', `/api/users/${roleMaker.id}/roles`, { userRoles: [{ roleId: makerRole.json().id, enabled: true }] });

    const above = await callAs(app, roleMaker, 'POST', '/api/roles', { name: 'Escalation', permissions: [P.Users.View, P.Users.Update] });
    expect(above.statusCode).toBe(403);
    expect(above.json().messages).toEqual(['You cannot grant permissions you do not have.']);
    expect((await callAs(app, roleMaker, 'PUT', `/api/roles/${managerRoleId}`, { description: 'mine now' })).statusCode).toBe(403);
    expect((await callAs(app, roleMaker, 'DELETE', `/api/roles/${managerRoleId}`)).statusCode).toBe(403);
    expect((await callAs(app, admin, 'PUT', `/api/roles/${await roleId(app.db, 'Admin')}`, { permissions: [] })).statusCode).toBe(409);
    expect((await callAs(app, roleMaker, 'POST', '/api/roles', { name: 'Bogus', permissions: ['Permissions.Everything.Now'] })).statusCode).toBe(400);
    expect((await callAs(app, admin, 'POST', '/api/roles', { name: 'user MANAGER', permissions: [] })).statusCode).toBe(400);

    const viewer = await callAs(app, roleMaker, 'POST', '/api/roles', { name: 'Viewer', permissions: [P.Users.View] });
    expect(viewer.statusCode).toBe(201);
    const widened = await callAs(app, roleMaker, 'PUT', `/api/roles/${viewer.json().id}`, { permissions: [P.Users.View, P.Roles.View] });
    expect(widened.json()).toMatchObject({ name: 'Viewer', permissions: [P.Roles.View, P.Users.View] });

    // Retiring the manager role takes its permissions away at the holder's next call.
    const retired = await callAs(app, admin, 'DELETE', `/api/roles/${managerRoleId}`);
    expect(retired.json()).toMatchObject({ roleId: managerRoleId, usersAffected: 1 });
    expect((await callAs(app, manager, 'PUT', '/api/users/edituser', { id: candidate.id, firstName: 'Again' })).statusCode).toBe(403);
    expect((await callAs(app, admin, 'DELETE', `/api/roles/${managerRoleId}`)).statusCode).toBe(404);
  });
});
