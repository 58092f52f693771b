import { describe, expect, it } from 'vitest';
import { manualClock } from '#server/lib/clock.ts';
import { identityLimits } from '#server/modules/identity/identity-limits.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, codeIn, countMailsTo, createUser, freshIp, mailsTo, MINUTE, HOUR, stableError, uniqueEmail } from './identity-test-kit.ts';

const clock = manualClock(new Date('2026-03-02T09:00:00Z'));

describeEachDatabase(
  'sign-in with password and e-mailed code',
  (get) => {
    const startSignIn = async (email: string, password: string, ip = freshIp()) => call(get().app, 'POST', '/api/tokens', { email, password }, { ip });

    const enterCode = async (email: string, token: string, enteredOTP: string, ip = freshIp()) =>
      call(get().app, 'POST', '/api/tokens/verifyotp', { email, token, enteredOTP }, { ip });

    describe('POST /api/tokens', () => {
      it('should answer a challenge token and e-mail a 6-digit code when the password is right', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const res = await startSignIn(user.email, user.password);
        expect(res.statusCode).toBe(200);
        const body = res.json();
        expect(Object.keys(body).sort()).toEqual(['otpExpiresAt', 'resendAfterSeconds', 'token']);
        expect(body.otpExpiresAt).toBe(new Date(clock.now().getTime() + 10 * MINUTE).toISOString());
        expect(body.resendAfterSeconds).toBe(30);

        const [mail] = await mailsTo(app, user.email);
        expect(mail.subject).toBe('Your Exam Portal sign-in code');
        const code = codeIn(mail);
        expect(code).toMatch(/^\d{6}$/);
        expect(mail.html).toContain(`>${code}</p>`);

        const stored = await db.query<{ code_hash: string }>(`select code_hash from sign_in_challenges where user_id = $1`, [user.id]);
        expect(stored.rows).toHaveLength(1);
        expect(stored.rows[0].code_hash).not.toContain(code);
        expect(stored.rows[0].code_hash).toMatch(/^[\w-]{43}$/);
      });

      it('should answer the same status and body for an unknown e-mail, a wrong password and a locked account', async () => {
        const { db } = get();
        const user = await createUser(db);
        const locked = await createUser(db);
        await db.query(`insert into sign_in_failures (user_id, consecutive_failures, locked_until) values ($1, 0, $2)`, [
          locked.id,
          new Date(clock.now().getTime() + 5 * MINUTE),
        ]);

        const unknown = stableError(await startSignIn(uniqueEmail('nobody'), user.password));
        const wrong = stableError(await startSignIn(user.email, 'not the password at all'));
        const lockedRight = stableError(await startSignIn(locked.email, locked.password));
        const expected = {
          status: 401,
          headers: { 'content-type': 'application/json; charset=utf-8' },
          body: {
            messages: ['The e-mail address or password is incorrect.'],
            source: 'POST /api/tokens',
            exception: 'The e-mail address or password is incorrect.',
            statusCode: 401,
            reason: 'invalidCredentials',
          },
        };
        expect(unknown).toEqual(expected);
        expect(wrong).toEqual(expected);
        expect(lockedRight).toEqual(expected);
      });

      it('should lock the account for 15 minutes after 10 consecutive failures, even for the right password', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        for (let i = 1; i <= 9; i += 1) expect((await startSignIn(user.email, `wrong password ${i}`)).statusCode).toBe(401);
        const state = await db.query<{ consecutive_failures: number; locked_until: Date | null }>(
          `select consecutive_failures, locked_until from sign_in_failures where user_id = $1`,
          [user.id],
        );
        expect(state.rows[0]).toEqual({ consecutive_failures: 9, locked_until: null });

        expect((await startSignIn(user.email, 'wrong password 10')).statusCode).toBe(401);
        const lockedAt = clock.now().getTime();
        const during = await startSignIn(user.email, user.password);
        expect(during.statusCode).toBe(401);
        expect(during.json().messages).toEqual(['The e-mail address or password is incorrect.']);
        expect(await countMailsTo(app, user.email)).toBe(0);

        clock.advance(15 * MINUTE - 1000);
        expect((await startSignIn(user.email, user.password)).statusCode).toBe(401);
        clock.set(new Date(lockedAt + 15 * MINUTE));
        expect((await startSignIn(user.email, user.password)).statusCode).toBe(200);
        expect(await countMailsTo(app, user.email)).toBe(1);
      });

      it('should start the count again when the password is right', async () => {
        const { db } = get();
        const user = await createUser(db);
        for (let i = 0; i < 9; i += 1) await startSignIn(user.email, `wrong password ${i}`);
        expect((await startSignIn(user.email, user.password)).statusCode).toBe(200);
        const cleared = await db.query(`select 1 from sign_in_failures where user_id = $1`, [user.id]);
        expect(cleared.rows).toHaveLength(0);
        for (let i = 0; i < 9; i += 1) await startSignIn(user.email, `wrong password ${i}`);
        clock.advance(31_000);
        expect((await startSignIn(user.email, user.password)).statusCode).toBe(200);
      });

      it('should say that an account is deactivated or unconfirmed only after the right password', async () => {
        const { app, db } = get();
        const inactive = await createUser(db, { isActive: false });
        const unconfirmed = await createUser(db, { emailConfirmed: false });
        expect((await startSignIn(inactive.email, 'wrong password here')).json().reason).toBe('invalidCredentials');
        expect((await startSignIn(unconfirmed.email, 'wrong password here')).json().reason).toBe('invalidCredentials');

        const deactivated = await startSignIn(inactive.email, inactive.password);
        expect(deactivated.statusCode).toBe(403);
        expect(deactivated.json()).toMatchObject({
          messages: ['This account is deactivated. Please contact your administrator.'],
          reason: 'accountDeactivated',
        });
        const notConfirmed = await startSignIn(unconfirmed.email, unconfirmed.password);
        expect(notConfirmed.statusCode).toBe(403);
        expect(notConfirmed.json()).toMatchObject({
          messages: ['Please confirm your e-mail address before signing in. Use the link we sent you, or ask for a new one.'],
          reason: 'emailNotConfirmed',
        });
        expect(await countMailsTo(app, inactive.email)).toBe(0);
        expect(await countMailsTo(app, unconfirmed.email)).toBe(0);
      });

      it('should choose the tenant from the tenant header before sign-in', async () => {
        const { db } = get();
        await db.query(`insert into tenants (id, name) values ('acme', 'Acme') on conflict do nothing`);
        await db.query(`insert into roles (tenant_id, name) values ('acme', 'Candidate') on conflict do nothing`);
        const user = await createUser(db, { tenantId: 'acme' });
        expect((await startSignIn(user.email, user.password)).statusCode).toBe(401);
        const res = await call(get().app, 'POST', '/api/tokens', { email: user.email, password: user.password }, { headers: { tenant: 'acme' } });
        expect(res.statusCode).toBe(200);
      });

      it('should send at most 10 codes per account per hour and then answer 429 with Retry-After', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const firstAt = clock.now().getTime();
        for (let i = 0; i < identityLimits.code.maxPerAccountPerHour; i += 1) {
          expect((await startSignIn(user.email, user.password)).statusCode).toBe(200);
          clock.advance(MINUTE);
        }
        const refused = await startSignIn(user.email, user.password);
        expect(refused.statusCode).toBe(429);
        const expectedWait = Math.ceil((firstAt + HOUR - clock.now().getTime()) / 1000);
        expect(refused.headers['retry-after']).toBe(String(expectedWait));
        expect(refused.json()).toMatchObject({ reason: 'hourlyCodeCap', retryAfterSeconds: expectedWait, statusCode: 429 });
        expect(await countMailsTo(app, user.email)).toBe(10);

        clock.set(new Date(firstAt + HOUR));
        expect((await startSignIn(user.email, user.password)).statusCode).toBe(200);
        expect(await countMailsTo(app, user.email)).toBe(11);
      });

      it('should record every sign-in, failed sign-in and its reason in the login history', async () => {
        const { db } = get();
        const user = await createUser(db);
        const ip = freshIp();
        await startSignIn(user.email, 'wrong password here', ip);
        clock.advance(1000);
        const ok = await startSignIn(user.email, user.password, ip);
        const [mail] = await mailsTo(get().app, user.email);
        await enterCode(user.email, ok.json().token, codeIn(mail) === '000000' ? '000001' : '000000', ip);
        clock.advance(1000);
        await enterCode(user.email, ok.json().token, codeIn(mail), ip);
        clock.advance(1000);
        const unknown = uniqueEmail('ghost');
        await startSignIn(unknown, 'whatever password', ip);

        const rows = await db.query<{ event: string; reason: string | null; ip: string; user_id: string | null; email: string }>(
          `select event, reason, ip, user_id, email from login_history where ip = $1 order by occurred_at`,
          [ip],
        );
        expect(rows.rows.map((r) => [r.event, r.reason, r.user_id, r.email])).toEqual([
          ['loginFailed', 'invalidPassword', user.id, user.email],
          ['loginFailed', 'invalidCode', user.id, user.email],
          ['login', null, user.id, user.email],
          ['loginFailed', 'unknownAccount', null, unknown],
        ]);
      });
    });

    describe('POST /api/tokens/verifyotp', () => {
      it('should sign in with the e-mailed code once and refuse the same code again', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const challenge = (await startSignIn(user.email, user.password)).json();
        const code = codeIn((await mailsTo(app, user.email))[0]);
        const first = await enterCode(user.email.toUpperCase(), challenge.token, ` ${code.slice(0, 3)} ${code.slice(3)} `);
        expect(first.statusCode).toBe(200);
        expect(Object.keys(first.json()).sort()).toEqual(['preferredLanguage', 'refreshToken', 'refreshTokenExpiryTime', 'token']);
        const again = await enterCode(user.email, challenge.token, code);
        expect(again.statusCode).toBe(401);
        expect(again.json()).toMatchObject({ messages: ['This code has already been used. Please sign in again.'], reason: 'codeUsed' });
      });

      it('should accept the code until 10 minutes have passed and refuse it afterwards', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const early = (await startSignIn(user.email, user.password)).json();
        clock.advance(10 * MINUTE - 1000);
        expect((await enterCode(user.email, early.token, codeIn((await mailsTo(app, user.email))[0]))).statusCode).toBe(200);

        clock.advance(MINUTE);
        const late = (await startSignIn(user.email, user.password)).json();
        clock.advance(10 * MINUTE);
        const refused = await enterCode(user.email, late.token, codeIn((await mailsTo(app, user.email))[0]));
        expect(refused.statusCode).toBe(401);
        expect(refused.json()).toMatchObject({ messages: ['The code has expired. Please request a new code.'], reason: 'codeExpired' });
      });

      it('should burn the code after 5 wrong codes so that the right one fails too', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const challenge = (await startSignIn(user.email, user.password)).json();
        const code = codeIn((await mailsTo(app, user.email))[0]);
        const wrong = code === '111111' ? '222222' : '111111';
        const remaining: number[] = [];
        for (let i = 0; i < 5; i += 1) {
          const res = await enterCode(user.email, challenge.token, wrong);
          expect(res.statusCode).toBe(401);
          remaining.push(res.json().remainingAttempts);
        }
        expect(remaining).toEqual([4, 3, 2, 1, 0]);
        const right = await enterCode(user.email, challenge.token, code);
        expect(right.statusCode).toBe(401);
        expect(right.json()).toMatchObject({ messages: ['Too many wrong codes. Please request a new code.'], reason: 'codeAttemptsExceeded' });
      });

      it('should refuse the challenge token with another e-mail address or when tampered with', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const other = await createUser(db);
        const challenge = (await startSignIn(user.email, user.password)).json();
        const code = codeIn((await mailsTo(app, user.email))[0]);
        const foreign = await enterCode(other.email, challenge.token, code);
        expect(foreign.statusCode).toBe(401);
        expect(foreign.json().reason).toBe('invalidChallenge');
        const [header, payload, signature] = challenge.token.split('.');
        const tampered = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
        expect((await enterCode(user.email, tampered, code)).json().reason).toBe('invalidChallenge');
        expect((await enterCode(user.email, challenge.token, code)).statusCode).toBe(200);
      });

      it('should answer 400 with problem details when a field is missing', async () => {
        const res = await call(get().app, 'POST', '/api/tokens/verifyotp', { email: 'someone@example.test' });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual({
          enteredOTP: ['The enteredOTP field is required.'],
          token: ['The token field is required.'],
        });
      });
    });

    describe('POST /api/tokens/resendotp', () => {
      it('should refuse a resend within 30 seconds with 429 and the seconds left in Retry-After', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        await startSignIn(user.email, user.password);
        const now = await call(app, 'POST', '/api/tokens/resendotp', { email: user.email, password: user.password });
        expect(now.statusCode).toBe(429);
        expect(now.headers['retry-after']).toBe('30');
        expect(now.json()).toMatchObject({ messages: ['Please wait 30 seconds before asking for another code.'], reason: 'resendCooldown' });
        clock.advance(20_000);
        const later = await call(app, 'POST', '/api/tokens/resendotp', { email: user.email, password: user.password });
        expect(later.statusCode).toBe(429);
        expect(later.headers['retry-after']).toBe('10');
        clock.advance(10_000);
        expect((await call(app, 'POST', '/api/tokens/resendotp', { email: user.email, password: user.password })).statusCode).toBe(200);
        expect(await countMailsTo(app, user.email)).toBe(2);
      });

      it('should send a new code and kill the old one', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const first = (await startSignIn(user.email, user.password)).json();
        const oldCode = codeIn((await mailsTo(app, user.email))[0]);
        clock.advance(30_000);
        const resent = await call(app, 'POST', '/api/tokens/resendotp', { email: user.email, password: user.password });
        expect(resent.statusCode).toBe(200);
        const second = resent.json();
        expect(second.token).not.toBe(first.token);
        const newCode = codeIn((await mailsTo(app, user.email))[0]);

        const old = await enterCode(user.email, first.token, oldCode);
        expect(old.statusCode).toBe(401);
        expect(old.json()).toMatchObject({ messages: ['A newer code has been sent. Please enter the code from the latest e-mail.'], reason: 'codeReplaced' });
        expect((await enterCode(user.email, second.token, newCode)).statusCode).toBe(200);
      });

      it('should check the password like sign-in and count a wrong one as a failure', async () => {
        const { db } = get();
        const user = await createUser(db);
        const res = await call(get().app, 'POST', '/api/tokens/resendotp', { email: user.email, password: 'wrong password here' });
        expect(res.statusCode).toBe(401);
        expect(res.json().messages).toEqual(['The e-mail address or password is incorrect.']);
        const failures = await db.query<{ consecutive_failures: number }>(`select consecutive_failures from sign_in_failures where user_id = $1`, [user.id]);
        expect(failures.rows[0].consecutive_failures).toBe(1);
      });
    });
  },
  { clock },
);
