import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P } from '#machines/permissions.ts';
import { testDatabaseKinds } from '#tests/setup/test-database.ts';
import { createTestApp } from '#tests/setup/test-app.ts';
import { createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { call, codeIn, mailsTo } from '../identity/identity-test-kit.ts';
import { ADMIN_DN, ADMIN_PASSWORD, BASE_DN, startSlapd } from './slapd.ts';
import { callAs, createRole } from './users-kit.ts';

const people = [
  { uid: 'kiran', givenName: 'Kiran', sn: 'Rao', mail: 'kiran.rao@corp.example', password: 'kiran directory pass 1' },
  { uid: 'radha', givenName: 'Radha', sn: 'Iyer', mail: 'radha.iyer@corp.example', password: 'radha directory pass 2' },
  { uid: 'ravi', givenName: 'Ravi', sn: 'Kumar', mail: 'ravi.kumar@corp.example', password: 'ravi directory pass 3' },
  { uid: 'nomail', givenName: 'No', sn: 'Mail', password: 'no mail pass 4' },
];

for (const kind of testDatabaseKinds) {
  describe(`directory users over LDAP (real slapd) [${kind}]`, () => {
    let slapd: Awaited<ReturnType<typeof startSlapd>>;
    let withLdap: Awaited<ReturnType<typeof createTestApp>>;
    let without: Awaited<ReturnType<typeof createTestApp>>;
    let admin: TestUser & { token: string };

    beforeAll(async () => {
      slapd = await startSlapd(people);
      withLdap = await createTestApp(kind, {
        env: { LDAP_URL: slapd.url, LDAP_BIND_DN: ADMIN_DN, LDAP_BIND_PASSWORD: ADMIN_PASSWORD, LDAP_BASE_DN: BASE_DN },
      });
      without = await createTestApp(kind);
      admin = await createSignedInUser(withLdap.app, { roles: ['Admin'] });
    }, 60_000);
    afterAll(async () => {
      await withLdap?.close();
      await without?.close();
      await slapd?.stop();
    });

    it('should answer a clear 400 when no directory is configured', async () => {
      const noLdapAdmin = await createSignedInUser(without.app, { roles: ['Admin'] });
      const lookup = await callAs(without.app, noLdapAdmin, 'GET', '/api/users/getusersfromad?userName=kiran');
      expect(lookup.statusCode).toBe(400);
      expect(lookup.json()).toMatchObject({
        messages: ['The enterprise directory is not configured. Set LDAP_URL (with LDAP_BIND_DN, LDAP_BIND_PASSWORD and LDAP_BASE_DN) on the server.'],
        reason: 'directoryNotConfigured',
      });
      expect((await callAs(without.app, noLdapAdmin, 'POST', '/api/users/searchusersfromad', {})).statusCode).toBe(400);
      const create = await callAs(without.app, noLdapAdmin, 'POST', '/api/users', { userName: 'kiran', loginType: 'directory' });
      expect(create.statusCode).toBe(400);
    });

    it('should look up one directory user by user name, and treat filter characters as text', async () => {
      const res = await callAs(withLdap.app, admin, 'GET', '/api/users/getusersfromad?userName=kiran');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        userName: 'kiran',
        email: 'kiran.rao@corp.example',
        firstName: 'Kiran',
        lastName: 'Rao',
        displayName: 'Kiran Rao',
        alreadyImported: false,
      });
      expect((await callAs(withLdap.app, admin, 'GET', '/api/users/getusersfromad?userName=nobody')).statusCode).toBe(404);
      expect((await callAs(withLdap.app, admin, 'GET', `/api/users/getusersfromad?userName=${encodeURIComponent('*)(uid=*')}`)).statusCode).toBe(404);
      expect((await callAs(withLdap.app, admin, 'GET', `/api/users/getusersfromad?userName=${encodeURIComponent('*')}`)).statusCode).toBe(404);
    });

    it('should search the directory with paging', async () => {
      const res = (await callAs(withLdap.app, admin, 'POST', '/api/users/searchusersfromad', { keyword: 'ra', pageSize: 2, pageNumber: 1 })).json();
      expect(res).toMatchObject({ totalCount: 3, totalPages: 2, hasNextPage: true });
      expect(res.data.map((u: { userName: string }) => u.userName)).toEqual(['kiran', 'radha']);
      const all = (await callAs(withLdap.app, admin, 'POST', '/api/users/searchusersfromad', {})).json();
      expect(all.data.map((u: { userName: string }) => u.userName)).toEqual(['kiran', 'nomail', 'radha', 'ravi']);
      const none = (await callAs(withLdap.app, admin, 'POST', '/api/users/searchusersfromad', { keyword: '*' })).json();
      expect(none.totalCount).toBe(0);
    });

    it('should import a directory user who then signs in with the directory password and the e-mailed code', async () => {
      const { app, db } = withLdap;
      const created = await callAs(app, admin, 'POST', '/api/users', { userName: 'radha', loginType: 'directory' });
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        userName: 'radha',
        email: 'radha.iyer@corp.example',
        firstName: 'Radha',
        lastName: 'Iyer',
        loginType: 'directory',
        emailConfirmed: true,
      });
      const { rows } = await db.query<{ password_hash: string | null }>(`select password_hash from users where id = $1`, [created.json().id]);
      expect(rows[0].password_hash).toBeNull();
      expect((await callAs(app, admin, 'GET', '/api/users/getusersfromad?userName=radha')).json().alreadyImported).toBe(true);

      const wrong = await call(app, 'POST', '/api/tokens', { email: 'radha.iyer@corp.example', password: 'not the directory password' });
      expect(wrong.statusCode).toBe(401);
      const first = await call(app, 'POST', '/api/tokens', { email: 'radha.iyer@corp.example', password: 'radha directory pass 2' });
      expect(first.statusCode).toBe(200);
      const [mail] = await mailsTo(app, 'radha.iyer@corp.example');
      const verified = await call(app, 'POST', '/api/tokens/verifyotp', {
        email: 'radha.iyer@corp.example',
        enteredOTP: codeIn(mail),
        token: first.json().token,
      });
      expect(verified.statusCode).toBe(200);
      const someoneElse = await call(app, 'POST', '/api/tokens', { email: 'radha.iyer@corp.example', password: 'kiran directory pass 1' });
      expect(someoneElse.statusCode).toBe(401);
      const rename = await callAs(app, admin, 'PUT', '/api/users/edituser', { id: created.json().id, userName: 'kiran' });
      expect(rename.json().errors).toEqual({ userName: ['The user name of a directory user is the directory user name and cannot change.'] });
    });

    it('should refuse importing an unknown entry, one without e-mail, a password, and callers without the import permission', async () => {
      const { app, db } = withLdap;
      const unknown = await callAs(app, admin, 'POST', '/api/users', { userName: 'ghost', loginType: 'directory' });
      expect(unknown.json().errors).toEqual({ userName: ['No directory user has this user name.'] });
      const noMail = await callAs(app, admin, 'POST', '/api/users', { userName: 'nomail', loginType: 'directory' });
      expect(noMail.json().errors).toEqual({ email: ['The directory entry has no e-mail address; send the email field.'] });
      const withMail = await callAs(app, admin, 'POST', '/api/users', { userName: 'nomail', loginType: 'directory', email: 'no.mail@corp.example' });
      expect(withMail.statusCode).toBe(201);
      const password = await callAs(app, admin, 'POST', '/api/users', { userName: 'ravi', loginType: 'directory', password: 'x', confirmPassword: 'x' });
      expect(password.statusCode).toBe(400);
      const creatorRole = await createRole(db, 'Creator', [
        P.Users.Create,
        P.Dashboard.View,
        P.SupportTickets.Create,
        P.SupportTickets.View,
        P.SupportChat.Use,
      ]);
      const creator = await createSignedInUser(app, { roles: [] });
      await db.query(`insert into user_roles (user_id, role_id) values ($1, $2)`, [creator.id, creatorRole]);
      const forbidden = await callAs(app, creator, 'POST', '/api/users', { userName: 'ravi', loginType: 'directory' });
      expect(forbidden.statusCode).toBe(403);
      expect(forbidden.json().messages).toEqual(['Importing directory users needs the permission Permissions.DirectoryUsers.Import.']);
    });
  });
}
