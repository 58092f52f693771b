import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { manualClock } from '#server/lib/clock.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, countMailsTo, createUser, GOOD_PASSWORD, HOUR, linkIn, mailsTo, MINUTE, OTHER_GOOD_PASSWORD, signIn, uniqueEmail } from './identity-test-kit.ts';

const clock = manualClock(new Date('2026-05-11T07:30:00Z'));
const PUBLIC_URL = 'http://exam-portal.test';

describeEachDatabase(
  'passwords and e-mail',
  (get) => {
    const post = (url: string, payload: unknown, options: Parameters<typeof call>[4] = {}) => call(get().app, 'POST', url, payload, options);
    const permissionsOf = (token: string) => call(get().app, 'GET', '/api/personal/permissions', undefined, { token });
    const registration = (overrides: Record<string, unknown> = {}) => {
      const email = uniqueEmail('candidate');
      return {
        firstName: 'Kavya',
        lastName: 'Menon',
        email,
        userName: email.split('@')[0],
        password: GOOD_PASSWORD,
        confirmPassword: GOOD_PASSWORD,
        phoneNumber: '+91 98765 43210',
        dateOfBirth: '2002-08-15',
        redirectUrl: '/exams',
        ...overrides,
      };
    };

    describe('POST /api/users/self-register', () => {
      it('should create an unconfirmed Candidate, mail the confirmation link and let it sign in once confirmed', async () => {
        const { app, db } = get();
        const body = registration();
        const res = await post('/api/users/self-register', body, { headers: { 'accept-language': 'fr-CA, en;q=0.5' } });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: 'Thank you for registering. We have sent a link to confirm your e-mail address; please check your inbox.' });

        const { rows } = await db.query<Record<string, unknown>>(
          `select u.id, u.email_confirmed, u.user_type, u.login_type, u.preferred_language, u.phone_number,
                  to_char(u.date_of_birth, 'YYYY-MM-DD') as dob, array_agg(r.name) as roles
           from users u join user_roles ur on ur.user_id = u.id join roles r on r.id = ur.role_id
           where u.email = $1 group by u.id`,
          [body.email],
        );
        expect(rows).toHaveLength(1);
        expect(rows[0]).toMatchObject({
          email_confirmed: false,
          user_type: 'candidate',
          login_type: 'local',
          preferred_language: 'fr',
          phone_number: '+91 98765 43210',
          dob: '2002-08-15',
          roles: ['Candidate'],
        });

        const [mail] = await mailsTo(app, body.email);
        expect(mail.subject).toBe('Confirmez votre adresse e-mail');
        expect(mail.html).toContain('<html lang="fr" dir="ltr">');
        const link = linkIn(mail);
        expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/confirm-email`);
        expect(Object.fromEntries(link.searchParams)).toMatchObject({ tenant: 'root', userId: rows[0].id, redirectUrl: '/exams' });
        expect(link.searchParams.get('code')).toMatch(/^[\w-]{43}$/);

        const before = await post('/api/tokens', { email: body.email, password: body.password });
        expect(before.statusCode).toBe(403);
        expect(before.json().reason).toBe('emailNotConfirmed');

        const confirm = await call(app, 'GET', `/api/users/confirm-email${link.search}`);
        expect(confirm.statusCode).toBe(200);
        expect(confirm.json()).toEqual({ message: 'Your e-mail address is confirmed. You can sign in now.' });
        const again = await call(app, 'GET', `/api/users/confirm-email${link.search}`);
        expect(again.json()).toEqual({ message: 'Your e-mail address is already confirmed. You can sign in.' });

        const session = await signIn(app, body);
        expect((await permissionsOf(session.token)).json()).toContain('Permissions.SupportTickets.Create');
      });

      it('should answer the same for an e-mail that already has an account and tell its owner by e-mail', async () => {
        const { app, db } = get();
        const existing = await createUser(db);
        const waiting = await createUser(db, { emailConfirmed: false });
        const fresh = await post('/api/users/self-register', registration());
        const taken = await post('/api/users/self-register', registration({ email: existing.email }));
        const unconfirmed = await post('/api/users/self-register', registration({ email: waiting.email }));
        for (const res of [taken, unconfirmed]) {
          expect(res.statusCode).toBe(fresh.statusCode);
          expect(res.json()).toEqual(fresh.json());
        }
        const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from users where lower(email) = lower($1)`, [existing.email]);
        expect(rows[0].n).toBe(1);
        const [notice] = await mailsTo(app, existing.email);
        expect(notice.subject).toBe('You already have an Exam Portal account');
        expect(linkIn(notice).toString()).toBe(`${PUBLIC_URL}/login?tenant=root`);
        const [confirmation] = await mailsTo(app, waiting.email);
        expect(confirmation.subject).toBe('Confirm your e-mail address');
      });

      it('should refuse a taken user name, a weak password, a mismatch and a future birth date with field errors', async () => {
        const { db } = get();
        const existing = await createUser(db);
        const res = await post(
          '/api/users/self-register',
          registration({
            userName: existing.userName.toUpperCase(),
            password: 'kavya menon 2002 rocks',
            confirmPassword: 'something else entirely',
            dateOfBirth: '2099-01-01',
          }),
        );
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual({
          password: ['The password must not contain your name, user name or e-mail address.'],
          confirmPassword: ['The passwords do not match.'],
          dateOfBirth: ['The date of birth cannot be in the future.'],
          userName: ['This user name is already taken.'],
        });
        const short = await post('/api/users/self-register', registration({ password: 'short pass', confirmPassword: 'short pass' }));
        expect(short.json().errors).toEqual({ password: ['Passwords must be at least 12 characters long.'] });
        const invalid = await post('/api/users/self-register', registration({ email: 'not-an-email', userName: 'x' }));
        expect(invalid.statusCode).toBe(400);
        expect(Object.keys(invalid.json().errors).sort()).toEqual(['email', 'userName']);
      });
    });

    describe('GET /api/users/confirm-email', () => {
      it('should refuse a confirmation link after 24 hours, a wrong code and another user id', async () => {
        const { app, db } = get();
        const user = await createUser(db, { emailConfirmed: false });
        const other = await createUser(db, { emailConfirmed: false });
        await post('/api/users/resend-verification', { email: user.email });
        const link = linkIn((await mailsTo(app, user.email))[0]);
        const code = link.searchParams.get('code')!;

        const wrongUser = await call(app, 'GET', `/api/users/confirm-email?tenant=root&userId=${other.id}&code=${code}`);
        expect(wrongUser.statusCode).toBe(400);
        expect(wrongUser.json().messages).toEqual(['The confirmation link is not valid or has expired. Please request a new one.']);
        expect((await call(app, 'GET', `/api/users/confirm-email?tenant=root&userId=${user.id}&code=nope`)).statusCode).toBe(400);

        clock.advance(24 * HOUR);
        const late = await call(app, 'GET', `/api/users/confirm-email${link.search}`);
        expect(late.statusCode).toBe(400);
        const { rows } = await db.query<{ email_confirmed: boolean }>(`select email_confirmed from users where id = $1`, [user.id]);
        expect(rows[0].email_confirmed).toBe(false);
      });
    });

    describe('POST /api/users/resend-verification', () => {
      it('should mail a new link that replaces the old one and answer the same for every e-mail', async () => {
        const { app, db } = get();
        const waiting = await createUser(db, { emailConfirmed: false });
        const confirmed = await createUser(db);
        const answers = [];
        answers.push(await post('/api/users/resend-verification', { email: waiting.email }));
        const firstLink = linkIn((await mailsTo(app, waiting.email))[0]);
        clock.advance(MINUTE);
        answers.push(await post('/api/users/resend-verification', { email: waiting.email }));
        answers.push(await post('/api/users/resend-verification', { email: confirmed.email }));
        answers.push(await post('/api/users/resend-verification', { email: uniqueEmail('nobody') }));
        for (const res of answers)
          expect(res.json()).toEqual({
            message: 'If an account with this e-mail address is waiting for confirmation, we have sent it a new confirmation link.',
          });
        expect(await countMailsTo(app, waiting.email)).toBe(2);
        expect(await countMailsTo(app, confirmed.email)).toBe(0);

        expect((await call(app, 'GET', `/api/users/confirm-email${firstLink.search}`)).statusCode).toBe(400);
        const secondLink = linkIn((await mailsTo(app, waiting.email))[0]);
        expect((await call(app, 'GET', `/api/users/confirm-email${secondLink.search}`)).statusCode).toBe(200);
      });
    });

    describe('POST /api/users/forgot-password and /reset-password', () => {
      it('should mail a reset link built from PUBLIC_URL that sets a new password once and ends every session', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const session = await signIn(app, user);
        const res = await post(
          '/api/users/forgot-password',
          { email: user.email.toUpperCase(), redirectUrl: 'https://evil.example/steal' },
          { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' } },
        );
        expect(res.json()).toEqual({ message: 'If an account exists for this e-mail address, we have sent it a link to reset the password.' });
        const [mail] = await mailsTo(app, user.email);
        expect(mail.subject).toBe('Reset your Exam Portal password');
        const link = linkIn(mail);
        expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/reset-password`);
        expect(link.searchParams.get('redirectUrl')).toBeNull();
        expect(link.searchParams.get('email')).toBe(user.email);
        const token = link.searchParams.get('token')!;
        expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
        const stored = await db.query(`select 1 from account_tokens where token_hash = $1`, [token]);
        expect(stored.rows).toHaveLength(0);

        const weak = await post('/api/users/reset-password', { email: user.email, password: 'aaaaaaaaaaaa', token, isFirstTimeLogin: false });
        expect(weak.statusCode).toBe(400);
        expect(Object.keys(weak.json().errors)).toEqual(['password']);

        const reset = await post('/api/users/reset-password', { email: user.email, password: OTHER_GOOD_PASSWORD, token, isFirstTimeLogin: false });
        expect(reset.statusCode).toBe(200);
        expect(reset.json()).toEqual({ message: 'Your password has been set. You can sign in now.' });
        const reused = await post('/api/users/reset-password', { email: user.email, password: GOOD_PASSWORD, token, isFirstTimeLogin: false });
        expect(reused.statusCode).toBe(400);
        expect(reused.json().messages).toEqual(['The link is not valid or has expired. Please request a new one.']);

        expect((await permissionsOf(session.token)).statusCode).toBe(401);
        expect((await post('/api/tokens', { email: user.email, password: GOOD_PASSWORD })).statusCode).toBe(401);
        clock.advance(31_000);
        expect((await post('/api/tokens', { email: user.email, password: OTHER_GOOD_PASSWORD })).statusCode).toBe(200);
      });

      it('should keep a same-origin redirect path and refuse the reset link after 30 minutes', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        await post('/api/users/forgot-password', { email: user.email, redirectUrl: `${PUBLIC_URL}/exams/42?tab=results` });
        const link = linkIn((await mailsTo(app, user.email))[0]);
        expect(link.searchParams.get('redirectUrl')).toBe('/exams/42?tab=results');
        clock.advance(30 * MINUTE);
        const late = await post('/api/users/reset-password', {
          email: user.email,
          password: OTHER_GOOD_PASSWORD,
          token: link.searchParams.get('token'),
        });
        expect(late.statusCode).toBe(400);
        expect(late.json()).toMatchObject({ messages: ['The link is not valid or has expired. Please request a new one.'], reason: 'invalidToken' });
      });

      it('should answer the same for an unknown e-mail and send nothing', async () => {
        const { app } = get();
        const nobody = uniqueEmail('nobody');
        const res = await post('/api/users/forgot-password', { email: nobody, redirectUrl: '/login' });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ message: 'If an account exists for this e-mail address, we have sent it a link to reset the password.' });
        expect(await countMailsTo(app, nobody)).toBe(0);
      });

      it('should still work while the account is locked and lift the lock once the password is reset', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        for (let i = 0; i < 10; i += 1) await post('/api/tokens', { email: user.email, password: `wrong password ${i}` });
        expect((await post('/api/tokens', { email: user.email, password: user.password })).statusCode).toBe(401);
        await post('/api/users/forgot-password', { email: user.email });
        const link = linkIn((await mailsTo(app, user.email))[0]);
        const reset = await post('/api/users/reset-password', {
          email: user.email,
          password: OTHER_GOOD_PASSWORD,
          token: link.searchParams.get('token'),
        });
        expect(reset.statusCode).toBe(200);
        expect((await post('/api/tokens', { email: user.email, password: OTHER_GOOD_PASSWORD })).statusCode).toBe(200);
      });
    });

    describe('invitations and first-time sign-in', () => {
      it('should invite a user without a password, let the link set it once within 72 hours and clear the flag', async () => {
        const { app, db } = get();
        const admin = await createUser(db, { roles: ['Admin'] });
        const invited = await createUser(db, { password: null, isFirstTimeLogin: true, emailConfirmed: false, preferredLanguage: 'hi' });
        const adminSession = await signIn(app, admin);
        const res = await post('/api/users/sendinvitationorconfirmation', { userIds: [invited.id] }, { token: adminSession.token });
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({ results: [{ userId: invited.id, outcome: 'invitationSent' }] });
        const [mail] = await mailsTo(app, invited.email);
        expect(mail.subject).toBe('आपको Exam Portal पर आमंत्रित किया गया है');
        const link = linkIn(mail);
        expect(`${link.origin}${link.pathname}`).toBe(`${PUBLIC_URL}/first-login`);
        const token = link.searchParams.get('token')!;

        const asReset = await post('/api/users/reset-password', { email: invited.email, password: GOOD_PASSWORD, token, isFirstTimeLogin: false });
        expect(asReset.statusCode).toBe(400);
        clock.advance(72 * HOUR - MINUTE);
        const set = await post('/api/users/reset-password', { email: invited.email, password: GOOD_PASSWORD, token, isFirstTimeLogin: true });
        expect(set.statusCode).toBe(200);
        const { rows } = await db.query<{ is_first_time_login: boolean; email_confirmed: boolean }>(
          `select is_first_time_login, email_confirmed from users where id = $1`,
          [invited.id],
        );
        expect(rows[0]).toEqual({ is_first_time_login: false, email_confirmed: true });
        const session = await signIn(app, { email: invited.email, password: GOOD_PASSWORD });
        expect(decodeJwt(session.token).isFirstTimeLogin).toBe(false);
      });

      it('should refuse an invitation link after 72 hours and replace it when the e-mail is resent', async () => {
        const { app, db } = get();
        const invited = await createUser(db, { password: null, isFirstTimeLogin: true });
        const first = await post('/api/users/resendemailtofirsttime', { email: invited.email });
        expect(first.json()).toEqual({
          message: 'If an account with this e-mail address is waiting for its first sign-in, we have sent it a new invitation link.',
        });
        const oldToken = linkIn((await mailsTo(app, invited.email))[0]).searchParams.get('token');
        clock.advance(MINUTE);
        await post('/api/users/resendemailtofirsttime', { email: invited.email });
        const newToken = linkIn((await mailsTo(app, invited.email))[0]).searchParams.get('token');
        const withOld = await post('/api/users/reset-password', { email: invited.email, password: GOOD_PASSWORD, token: oldToken, isFirstTimeLogin: true });
        expect(withOld.statusCode).toBe(400);
        clock.advance(72 * HOUR);
        const late = await post('/api/users/reset-password', { email: invited.email, password: GOOD_PASSWORD, token: newToken, isFirstTimeLogin: true });
        expect(late.statusCode).toBe(400);

        const other = await post('/api/users/resendemailtofirsttime', { email: uniqueEmail('nobody') });
        expect(other.json()).toEqual({
          message: 'If an account with this e-mail address is waiting for its first sign-in, we have sent it a new invitation link.',
        });
      });

      it('should report what it sent to each user and refuse callers without the permission', async () => {
        const { app, db } = get();
        const admin = await createUser(db, { roles: ['Admin'] });
        const unconfirmed = await createUser(db, { emailConfirmed: false });
        const active = await createUser(db);
        const candidate = await createUser(db);
        const missing = '00000000-0000-4000-8000-0000000000aa';
        const adminSession = await signIn(app, admin);
        const res = await post('/api/users/sendinvitationorconfirmation', { userIds: [unconfirmed.id, active.id, missing] }, { token: adminSession.token });
        expect(res.json()).toEqual({
          results: [
            { userId: unconfirmed.id, outcome: 'confirmationSent' },
            { userId: active.id, outcome: 'nothingToSend' },
            { userId: missing, outcome: 'notFound' },
          ],
        });
        expect((await mailsTo(app, unconfirmed.email))[0].subject).toBe('Confirm your e-mail address');
        const candidateSession = await signIn(app, candidate);
        const refused = await post('/api/users/sendinvitationorconfirmation', { userIds: [active.id] }, { token: candidateSession.token });
        expect(refused.statusCode).toBe(403);
      });

      it('should put isFirstTimeLogin in the token and let the user clear it only by choosing a password', async () => {
        const { app, db } = get();
        const user = await createUser(db, { isFirstTimeLogin: true });
        const session = await signIn(app, user);
        expect(decodeJwt(session.token).isFirstTimeLogin).toBe(true);
        const early = await post('/api/users/updatefirsttimelogin', { userId: user.id, isFirstTimeLogin: false }, { token: session.token });
        expect(early.statusCode).toBe(409);
        expect(early.json()).toMatchObject({ messages: ['Choose a new password to finish your first sign-in.'], reason: 'passwordRequired' });

        const changed = await post(
          `/api/users/change-password/?userId=${user.id}`,
          { currentPassword: user.password, newPassword: OTHER_GOOD_PASSWORD, confirmNewPassword: OTHER_GOOD_PASSWORD },
          { token: session.token },
        );
        expect(changed.statusCode).toBe(200);
        const token = changed.json().token;
        expect(decodeJwt(token).isFirstTimeLogin).toBe(false);
        const confirmed = await post('/api/users/updatefirsttimelogin', { userId: user.id, isFirstTimeLogin: false }, { token });
        expect(confirmed.statusCode).toBe(200);
        expect(confirmed.json()).toEqual({ userId: user.id, isFirstTimeLogin: false, message: 'The first-time sign-in setting has been updated.' });
      });

      it('should let holders of Users.Update require a new password at the next sign-in', async () => {
        const { app, db } = get();
        const admin = await createUser(db, { roles: ['Admin'] });
        const user = await createUser(db);
        const adminSession = await signIn(app, admin);
        const userSession = await signIn(app, user);
        const res = await post('/api/users/updatefirsttimelogin', { userId: user.id, isFirstTimeLogin: true }, { token: adminSession.token });
        expect(res.statusCode).toBe(200);
        const byUser = await post('/api/users/updatefirsttimelogin', { userId: admin.id, isFirstTimeLogin: true }, { token: userSession.token });
        expect(byUser.statusCode).toBe(403);
        clock.advance(31_000);
        const next = await signIn(app, user);
        expect(decodeJwt(next.token).isFirstTimeLogin).toBe(true);
      });
    });

    describe('POST /api/users/change-password/?userId=', () => {
      it('should need the current password, count wrong ones towards the lockout and answer field errors', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const session = await signIn(app, user);
        const wrong = await post(
          `/api/users/change-password/?userId=${user.id}`,
          { currentPassword: 'not my password', newPassword: OTHER_GOOD_PASSWORD, confirmNewPassword: OTHER_GOOD_PASSWORD },
          { token: session.token },
        );
        expect(wrong.statusCode).toBe(400);
        expect(wrong.json().errors).toEqual({ currentPassword: ['The current password is not correct.'] });
        const { rows } = await db.query<{ consecutive_failures: number }>(`select consecutive_failures from sign_in_failures where user_id = $1`, [user.id]);
        expect(rows[0].consecutive_failures).toBe(1);

        const same = await post(
          `/api/users/change-password?userId=${user.id}`,
          { currentPassword: user.password, newPassword: user.password, confirmNewPassword: 'typo' },
          { token: session.token },
        );
        expect(same.json().errors).toEqual({
          newPassword: ['The new password must be different from the current one.'],
          confirmNewPassword: ['The passwords do not match.'],
        });
        const missing = await post(`/api/users/change-password/?userId=${user.id}`, { newPassword: 'x', confirmNewPassword: 'x' }, { token: session.token });
        expect(missing.json().errors).toEqual({ currentPassword: ['The currentPassword field is required.'] });
      });

      it('should end every other session, keep this one with the new token and mail a notice', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const here = await signIn(app, user);
        clock.advance(31_000);
        const elsewhere = await signIn(app, user);
        const res = await post(
          `/api/users/change-password/?userId=${user.id}`,
          { currentPassword: user.password, newPassword: OTHER_GOOD_PASSWORD, confirmNewPassword: OTHER_GOOD_PASSWORD },
          { token: here.token },
        );
        expect(res.statusCode).toBe(200);
        expect(res.json().message).toBe('Your password has been changed. Every other session has been signed out.');
        const token = res.json().token;

        expect((await permissionsOf(elsewhere.token)).statusCode).toBe(401);
        expect((await post('/api/tokens/refresh', { token: elsewhere.token, refreshToken: elsewhere.refreshToken })).statusCode).toBe(401);
        expect((await permissionsOf(here.token)).statusCode).toBe(401);
        expect((await permissionsOf(token)).statusCode).toBe(200);
        const refreshed = await post('/api/tokens/refresh', { token, refreshToken: here.refreshToken });
        expect(refreshed.statusCode).toBe(200);

        expect((await mailsTo(app, user.email))[0].subject).toBe('Your Exam Portal password was changed');
        clock.advance(31_000);
        expect((await post('/api/tokens', { email: user.email, password: user.password })).statusCode).toBe(401);
        expect((await post('/api/tokens', { email: user.email, password: OTHER_GOOD_PASSWORD })).statusCode).toBe(200);
      });

      it('should refuse to change another user’s password', async () => {
        const { app, db } = get();
        const user = await createUser(db);
        const other = await createUser(db);
        const session = await signIn(app, user);
        const res = await post(
          `/api/users/change-password/?userId=${other.id}`,
          { currentPassword: user.password, newPassword: OTHER_GOOD_PASSWORD, confirmNewPassword: OTHER_GOOD_PASSWORD },
          { token: session.token },
        );
        expect(res.statusCode).toBe(403);
        expect(res.json().messages).toEqual(['You can change only your own password.']);
        expect((await post(`/api/users/change-password/?userId=${user.id}`, {})).statusCode).toBe(401);
      });
    });

    describe('POST /api/users/validateemail?email=', () => {
      it('should judge the syntax only and answer alike for addresses with and without an account', async () => {
        const { db } = get();
        const user = await createUser(db);
        const known = await post(`/api/users/validateemail?email=${encodeURIComponent(` ${user.email.toUpperCase()} `)}`, undefined);
        const unknown = await post(`/api/users/validateemail?email=${encodeURIComponent(uniqueEmail('nobody'))}`, undefined);
        expect(known.json()).toEqual({ email: user.email, isValid: true, message: 'The e-mail address is valid.' });
        expect(Object.keys(unknown.json())).toEqual(Object.keys(known.json()));
        expect(unknown.json().isValid).toBe(true);
        const bad = await post('/api/users/validateemail?email=not%20an%20address', undefined);
        expect(bad.json()).toEqual({ email: 'not an address', isValid: false, message: 'This is not a valid e-mail address.' });
      });
    });
  },
  { clock },
);
