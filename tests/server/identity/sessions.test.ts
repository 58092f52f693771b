import { decodeJwt, decodeProtectedHeader, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { defaultRolePermissions } from '#machines/permissions.ts';
import type { Db } from '#server/db/client.ts';
import { manualClock } from '#server/lib/clock.ts';
import { deriveKey } from '#server/modules/identity/token-crypto.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, codeIn, createUser, mailsTo, MINUTE, signIn } from './identity-test-kit.ts';

const clock = manualClock(new Date('2026-04-06T08:00:00Z'));
const DAY = 24 * 60 * MINUTE;

describeEachDatabase(
  'tokens and sessions',
  (get) => {
    const permissions = (token: string, headers: Record<string, string> = {}) =>
      call(get().app, 'GET', '/api/personal/permissions', undefined, { token, headers });
    const refresh = (token: string, refreshToken: string) => call(get().app, 'POST', '/api/tokens/refresh', { token, refreshToken });
    /** The two sign-in steps under a tenant's header, each expected to pass. */
    const signInAt = async (tenant: string, user: { email: string; password: string }) => {
      const headers = { tenant };
      const first = await call(get().app, 'POST', '/api/tokens', { email: user.email, password: user.password }, { headers });
      expect(first.statusCode).toBe(200);
      const [mail] = await mailsTo(get().app, user.email);
      const verified = await call(
        get().app,
        'POST',
        '/api/tokens/verifyotp',
        { email: user.email, token: first.json().token, enteredOTP: codeIn(mail) },
        { headers },
      );
      expect(verified.statusCode).toBe(200);
      return verified.json() as { token: string; refreshToken: string };
    };

    describe('access tokens', () => {
      it('should carry the .NET claim types, the scope claims and a 15-minute lifetime', async () => {
        const { db, config } = get();
        const user = await createUser(db, { firstName: 'Meera', lastName: 'Iyer' });
        const instituteId = '5b1e7f3c-2a47-4c1e-9d2b-4f6a8e0c1d23';
        await db.query(`update users set institute_id = $2 where id = $1`, [user.id, instituteId]);
        const session = await signIn(get().app, user);
        expect(decodeProtectedHeader(session.token)).toEqual({ alg: 'HS256', typ: 'at+jwt' });
        const claims = decodeJwt(session.token);
        expect(claims).toMatchObject({
          'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier': user.id,
          'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress': user.email,
          'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name': 'Meera',
          'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname': 'Iyer',
          fullName: 'Meera Iyer',
          userName: user.userName,
          tenant: 'root',
          userType: 'candidate',
          resellerId: null,
          instituteId,
          isFirstTimeLogin: false,
          tokenVersion: 0,
          sub: user.id,
          iss: config.publicUrl,
          aud: 'exam-portal-api',
        });
        expect(claims.exp! - claims.iat!).toBe(15 * 60);
        expect(claims.nbf).toBe(claims.iat);
        expect(claims.iat).toBe(clock.now().getTime() / 1000);
      });

      it('should answer the caller’s permissions, sorted, for an explicit bearer token', async () => {
        const { db } = get();
        const user = await createUser(db);
        const session = await signIn(get().app, user);
        const res = await permissions(session.token);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([...defaultRolePermissions.Candidate].sort());
      });

      it('should load the caller with one database query per request', async () => {
        const { db } = get();
        const user = await createUser(db);
        const session = await signIn(get().app, user);
        let queries = 0;
        const original = db.query.bind(db);
        (db as { query: Db['query'] }).query = ((sql: string, params?: readonly unknown[]) => {
          queries += 1;
          return original(sql, params);
        }) as Db['query'];
        try {
          expect((await permissions(session.token)).statusCode).toBe(200);
        } finally {
          (db as { query: Db['query'] }).query = original;
        }
        expect(queries).toBe(1);
      });

      it('should refuse the access token once 15 minutes have passed', async () => {
        const { db } = get();
        const session = await signIn(get().app, await createUser(db));
        clock.advance(15 * MINUTE - 1000);
        expect((await permissions(session.token)).statusCode).toBe(200);
        clock.advance(1000);
        const expired = await permissions(session.token);
        expect(expired.statusCode).toBe(401);
        expect(expired.json().messages).toEqual(['The access token has expired.']);
        expect(expired.headers['www-authenticate']).toBe(`Bearer error="invalid_token", error_description="The access token has expired."`);
      });

      it('should refuse tokens with another algorithm, type or key, unsigned ones and a future nbf', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const session = await signIn(app, user);
        const claims = decodeJwt(session.token);
        const accessKey = deriveKey(app.secrets.jwt, 'access-token');
        const now = clock.now().getTime() / 1000;
        const forge = (header: Record<string, unknown>, key: Uint8Array, extra: Record<string, unknown> = {}) =>
          new SignJWT({ ...claims, ...extra }).setProtectedHeader(header as never).sign(key);

        expect((await permissions(await forge({ alg: 'HS256', typ: 'at+jwt' }, accessKey))).statusCode).toBe(200);
        const refusedTokens = {
          hs512: await forge({ alg: 'HS512', typ: 'at+jwt' }, accessKey),
          noType: await forge({ alg: 'HS256' }, accessKey),
          challengeType: await forge({ alg: 'HS256', typ: 'sign-in-challenge+jwt' }, accessKey),
          challengeKey: await forge({ alg: 'HS256', typ: 'at+jwt' }, deriveKey(app.secrets.jwt, 'challenge-token')),
          futureNbf: await forge({ alg: 'HS256', typ: 'at+jwt' }, accessKey, { nbf: now + 60 }),
          noExpiry: await forge({ alg: 'HS256', typ: 'at+jwt' }, accessKey, { exp: undefined }),
          unsigned: `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'at+jwt' })).toString('base64url')}.${session.token.split('.')[1]}.`,
        };
        const statuses = Object.fromEntries(
          await Promise.all(Object.entries(refusedTokens).map(async ([name, token]) => [name, (await permissions(token)).statusCode])),
        );
        expect(statuses).toEqual({
          hs512: 401,
          noType: 401,
          challengeType: 401,
          challengeKey: 401,
          futureNbf: 401,
          noExpiry: 401,
          unsigned: 401,
        });
      });

      it('should refuse the challenge token of POST /tokens as an access token', async () => {
        const { db } = get();
        const user = await createUser(db);
        const challenge = await call(get().app, 'POST', '/api/tokens', { email: user.email, password: user.password });
        expect(challenge.statusCode).toBe(200);
        const res = await permissions(challenge.json().token);
        expect(res.statusCode).toBe(401);
        expect(res.json().messages).toEqual(['The access token is not valid.']);
      });

      it('should fail at once when the user is deactivated or the token version changes', async () => {
        const { db } = get();
        const deactivated = await createUser(db);
        const bumped = await createUser(db);
        const a = await signIn(get().app, deactivated);
        const b = await signIn(get().app, bumped);
        await db.query(`update users set is_active = false where id = $1`, [deactivated.id]);
        await db.query(`update users set token_version = token_version + 1 where id = $1`, [bumped.id]);
        for (const token of [a.token, b.token]) {
          const res = await permissions(token);
          expect(res.statusCode).toBe(401);
          expect(res.json().messages).toEqual(['The session has ended. Please sign in again.']);
        }
        expect((await refresh(a.token, a.refreshToken)).statusCode).toBe(401);
      });

      it('should take the tenant from the token and ignore the tenant header once signed in', async () => {
        const { db } = get();
        await db.query(`insert into tenants (id, name) values ('globex', 'Globex') on conflict do nothing`);
        await db.query(`insert into roles (tenant_id, name) values ('globex', 'Candidate') on conflict do nothing`);
        const user = await createUser(db, { tenantId: 'globex' });
        const token = (await signInAt('globex', user)).token;
        expect(decodeJwt(token).tenant).toBe('globex');
        const asRoot = await permissions(token, { tenant: 'root' });
        expect(asRoot.statusCode).toBe(200);
        expect(asRoot.json()).toEqual([]);
      });
    });

    describe('POST /api/tokens/refresh', () => {
      it('should rotate both tokens and keep the absolute expiry of the session', async () => {
        const { db } = get();
        const signedInAt = clock.now().getTime();
        const session = await signIn(get().app, await createUser(db));
        expect(session.refreshTokenExpiryTime).toBe(new Date(signedInAt + 7 * DAY).toISOString());
        expect(Buffer.from(session.refreshToken, 'base64url')).toHaveLength(32);
        clock.advance(20 * MINUTE);
        const res = await refresh(session.token, session.refreshToken);
        expect(res.statusCode).toBe(200);
        const next = res.json();
        expect(next.refreshToken).not.toBe(session.refreshToken);
        expect(next.token).not.toBe(session.token);
        expect(next.refreshTokenExpiryTime).toBe(session.refreshTokenExpiryTime);
        expect((await permissions(next.token)).statusCode).toBe(200);
        const stored = await db.query<{ n: number }>(`select count(*)::int as n from refresh_tokens where token_hash = $1`, [next.refreshToken]);
        expect(stored.rows[0].n).toBe(0);
      });

      it('should revoke the whole family, newest tokens included, when a used refresh token comes back', async () => {
        const { db } = get();
        const user = await createUser(db);
        const session = await signIn(get().app, user);
        const second = (await refresh(session.token, session.refreshToken)).json();
        const third = (await refresh(second.token, second.refreshToken)).json();
        expect((await permissions(third.token)).statusCode).toBe(200);

        const reuse = await refresh(session.token, session.refreshToken);
        expect(reuse.statusCode).toBe(401);
        expect(reuse.json()).toMatchObject({
          messages: ['This refresh token was already used, so the session has been ended for your safety. Please sign in again.'],
          reason: 'refreshTokenReused',
        });
        const newest = await refresh(third.token, third.refreshToken);
        expect(newest.statusCode).toBe(401);
        expect(newest.json().reason).toBe('sessionEnded');
        expect((await permissions(third.token)).statusCode).toBe(401);

        const history = await db.query<{ event: string; reason: string }>(
          `select event, reason from login_history where user_id = $1 and event = 'sessionRevoked'`,
          [user.id],
        );
        expect(history.rows).toEqual([{ event: 'sessionRevoked', reason: 'refreshTokenReuse' }]);
      });

      it('should leave the other sessions of the user alone when one family is revoked', async () => {
        const { db } = get();
        const user = await createUser(db);
        const laptop = await signIn(get().app, user);
        clock.advance(31_000);
        const phone = await signIn(get().app, user);
        await refresh(laptop.token, laptop.refreshToken);
        expect((await refresh(laptop.token, laptop.refreshToken)).statusCode).toBe(401);
        expect((await permissions(phone.token)).statusCode).toBe(200);
        expect((await refresh(phone.token, phone.refreshToken)).statusCode).toBe(200);
      });

      it('should end the session 7 days after sign-in however often it was refreshed', async () => {
        const { db } = get();
        const start = clock.now().getTime();
        let session = await signIn(get().app, await createUser(db));
        for (let day = 1; day < 7; day += 1) {
          clock.set(new Date(start + day * DAY));
          const res = await refresh(session.token, session.refreshToken);
          expect(res.statusCode).toBe(200);
          session = res.json();
        }
        clock.set(new Date(start + 7 * DAY));
        const expired = await refresh(session.token, session.refreshToken);
        expect(expired.statusCode).toBe(401);
        expect(expired.json()).toMatchObject({ messages: ['The session has expired. Please sign in again.'], reason: 'sessionExpired' });
      });

      it('should refuse a refresh token presented with another user’s access token or an unknown one', async () => {
        const { db } = get();
        const mine = await signIn(get().app, await createUser(db));
        const theirs = await signIn(get().app, await createUser(db));
        expect((await refresh(theirs.token, mine.refreshToken)).json().reason).toBe('invalidRefreshToken');
        expect((await refresh(mine.token, 'x'.repeat(43))).json().reason).toBe('invalidRefreshToken');
        expect((await refresh('not-a-jwt', mine.refreshToken)).json().reason).toBe('invalidToken');
        expect((await refresh(mine.token, mine.refreshToken)).statusCode).toBe(200);
      });
    });

    describe('a refresh checked against its session (RFC 9700 §4.14.2)', () => {
      it('should refuse the refresh token of another session of the same user', async () => {
        const { db } = get();
        const user = await createUser(db);
        const laptop = await signIn(get().app, user);
        const phone = await signIn(get().app, user);
        const crossed = await refresh(laptop.token, phone.refreshToken);
        expect(crossed.statusCode).toBe(401);
        expect(crossed.json().reason).toBe('invalidRefreshToken');
        // Refused before it was used: the phone's own refresh still works.
        expect((await refresh(phone.token, phone.refreshToken)).statusCode).toBe(200);
      });

      it('should end the session once the user’s tenant is switched off', async () => {
        const { db } = get();
        await db.query(`insert into tenants (id, name) values ('dormant', 'Dormant') on conflict do nothing`);
        await db.query(`insert into roles (tenant_id, name) values ('dormant', 'Candidate') on conflict do nothing`);
        const session = await signInAt('dormant', await createUser(db, { tenantId: 'dormant' }));
        await db.query(`update tenants set is_active = false where id = 'dormant'`);
        try {
          const refused = await refresh(session.token, session.refreshToken);
          expect(refused.statusCode).toBe(401);
          expect(refused.json()).toMatchObject({ messages: ['The session has ended. Please sign in again.'], reason: 'sessionEnded' });
        } finally {
          await db.query(`update tenants set is_active = true where id = 'dormant'`);
        }
        // The refusal did not use the token up: switched on again, the session goes on.
        expect((await refresh(session.token, session.refreshToken)).statusCode).toBe(200);
      });

      it('should forget a user’s ended sessions a day after they ended, at their next sign-in', async () => {
        const { db } = get();
        const user = await createUser(db);
        const ended = await signIn(get().app, user);
        const familyId = decodeJwt(ended.token).sid as string;
        await refresh(ended.token, ended.refreshToken);
        expect((await refresh(ended.token, ended.refreshToken)).json().reason).toBe('refreshTokenReused');
        const kept = async () => (await db.query<{ n: number }>(`select count(*)::int as n from refresh_token_families where id = $1`, [familyId])).rows[0].n;
        clock.advance(23 * 60 * MINUTE);
        await signIn(get().app, user);
        expect(await kept(), 'ended 23 hours ago: kept').toBe(1);
        clock.advance(2 * 60 * MINUTE);
        await signIn(get().app, user);
        expect(await kept(), 'ended 25 hours ago: gone').toBe(0);
      });
    });

    describe('POST /api/users/{userId}/invalidatepermission', () => {
      it('should sign the user out on every device and record the logout', async () => {
        const { db } = get();
        const user = await createUser(db);
        const first = await signIn(get().app, user);
        clock.advance(31_000);
        const second = await signIn(get().app, user);
        const res = await call(get().app, 'POST', `/api/users/${user.id}/invalidatepermission`, { userId: user.id }, { token: first.token });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: 'You have been signed out on every device.' });
        for (const session of [first, second]) {
          expect((await permissions(session.token)).statusCode).toBe(401);
          expect((await refresh(session.token, session.refreshToken)).statusCode).toBe(401);
        }
        const history = await db.query<{ event: string }>(`select event from login_history where user_id = $1 and event = 'logout'`, [user.id]);
        expect(history.rows).toHaveLength(1);
      });

      it('should let a user sign out only themselves unless they may update users', async () => {
        const { db } = get();
        const victim = await createUser(db);
        const other = await createUser(db);
        const admin = await createUser(db, { roles: ['Admin'] });
        const victimSession = await signIn(get().app, victim);
        const otherSession = await signIn(get().app, other);
        const adminSession = await signIn(get().app, admin);

        const refused = await call(get().app, 'POST', `/api/users/${victim.id}/invalidatepermission`, null, { token: otherSession.token });
        // Answered as for an unknown id (issue 23 rule 2), so the route reveals no ids.
        expect(refused.statusCode).toBe(404);
        expect(refused.json().messages).toEqual(['The user was not found.']);
        expect((await permissions(victimSession.token)).statusCode).toBe(200);

        const byAdmin = await call(get().app, 'POST', `/api/users/${victim.id}/invalidatepermission`, null, { token: adminSession.token });
        expect(byAdmin.statusCode).toBe(200);
        expect((await permissions(victimSession.token)).statusCode).toBe(401);
        expect((await permissions(adminSession.token)).statusCode).toBe(200);
      });

      it('should refuse a body naming another user and a call without a token', async () => {
        const { db } = get();
        const user = await createUser(db);
        const session = await signIn(get().app, user);
        const other = '00000000-0000-4000-8000-000000000000';
        const mismatch = await call(get().app, 'POST', `/api/users/${user.id}/invalidatepermission`, { userId: other }, { token: session.token });
        expect(mismatch.statusCode).toBe(400);
        expect(mismatch.json().messages).toEqual(['The userId in the body must match the userId in the path.']);
        const anonymous = await call(get().app, 'POST', `/api/users/${user.id}/invalidatepermission`, { userId: user.id });
        expect(anonymous.statusCode).toBe(401);
        expect(anonymous.headers['www-authenticate']).toBe('Bearer');
      });
    });
  },
  { clock },
);
