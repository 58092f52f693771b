import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, createUser, freshIp, mailsTo, signIn, uniqueEmail } from '../identity/identity-test-kit.ts';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

function put(app: FastifyInstance, url: string, token: string, payload: unknown) {
  return app.inject({ method: 'PUT', url, headers: { authorization: `Bearer ${token}` }, payload: payload as never });
}

describeEachDatabase('the profile /api/v1/profile', (get) => {
  it('should keep the chosen language on the server, give it at the next sign-in, and write account e-mails in it', async () => {
    const { app } = get();
    const user = await createUser(app.db, { email: uniqueEmail('lang'), firstName: 'Meera' });
    const first = await signIn(app, user);
    expect(first).toMatchObject({ preferredLanguage: null });

    const bad = await put(app, '/api/v1/profile/language', first.token, { language: 'klingon' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.language[0]).toContain('Choose one of');
    const saved = await put(app, '/api/v1/profile/language', first.token, { language: 'HI' });
    expect(saved.json()).toEqual({ preferredLanguage: 'hi' });

    // Another device (another IP, no Accept-Language): the sign-in answers the saved language,
    // and the sign-in code mail is already in Hindi.
    const other = (await signIn(app, user, freshIp())) as Awaited<ReturnType<typeof signIn>> & { preferredLanguage?: string | null };
    expect(other.preferredLanguage).toBe('hi');
    const [codeMail] = await mailsTo(app, user.email);
    expect(codeMail.html).toContain('lang="hi"');
    const forgot = await call(app, 'POST', '/api/users/forgot-password', { email: user.email }, { headers: { 'accept-language': 'fr' } });
    expect(forgot.statusCode).toBe(200);
    const [resetMail] = await mailsTo(app, user.email);
    expect(resetMail.html).toContain('lang="hi"');
    expect(resetMail.subject).not.toBe(codeMail.subject);
  });

  it('should show the profile, change only what a person may change, and answer per-field errors', async () => {
    const { app } = get();
    const user = await createUser(app.db, { email: uniqueEmail('prof'), firstName: 'Ravi', lastName: 'Kumar' });
    await app.db.query(`insert into user_languages (user_id, tenant_id, language_code) values ($1, 'root', 'gu'), ($1, 'root', 'en')`, [user.id]);
    const { token } = await signIn(app, user);
    const profile = await app.inject({ method: 'GET', url: '/api/v1/profile', headers: { authorization: `Bearer ${token}` } });
    expect(profile.json()).toMatchObject({
      firstName: 'Ravi',
      lastName: 'Kumar',
      email: user.email,
      languages: ['en', 'gu'],
      editable: ['firstName', 'lastName', 'phoneNumber', 'dateOfBirth'],
    });

    const wrong = await put(app, '/api/v1/profile', token, { firstName: '  ', phoneNumber: 'call me', dateOfBirth: '2999-01-01' });
    expect(wrong.statusCode).toBe(400);
    expect(Object.keys(wrong.json().errors).sort()).toEqual(['dateOfBirth', 'firstName', 'phoneNumber']);
    expect(wrong.json().errors.dateOfBirth).toEqual(['The date of birth cannot be in the future.']);
    expect((await put(app, '/api/v1/profile', token, { dateOfBirth: '2001-02-30' })).json().errors.dateOfBirth).toEqual(['Use a date as yyyy-mm-dd.']);
    // E-mail is how one signs in: not changed here (an unknown property is dropped, never applied).
    const ok = await put(app, '/api/v1/profile', token, {
      firstName: 'Ravindra',
      phoneNumber: '+91 98765 43210',
      dateOfBirth: '2001-02-03',
      email: 'x@y.test',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ firstName: 'Ravindra', phoneNumber: '+91 98765 43210', dateOfBirth: '2001-02-03', email: user.email });
  });

  describe('sessions and login history', () => {
    it('should list own sessions with readable devices, sign out another device, then everywhere else', async () => {
      const { app } = get();
      const user = await createUser(app.db, { email: uniqueEmail('sess') });
      const signInWith = async (ua: string) => {
        const ip = freshIp();
        const first = await app.inject({
          method: 'POST',
          url: '/api/tokens',
          remoteAddress: ip,
          headers: { 'user-agent': ua },
          payload: { email: user.email, password: user.password },
        });
        const [mail] = await mailsTo(app, user.email);
        const code = /: (\d{6})\n/.exec(mail.text)![1];
        const verified = await app.inject({
          method: 'POST',
          url: '/api/tokens/verifyotp',
          remoteAddress: ip,
          headers: { 'user-agent': ua },
          payload: { email: user.email, enteredOTP: code, token: first.json().token },
        });
        return verified.json().token as string;
      };
      // A failed sign-in first: it shows with its reason.
      await app.inject({
        method: 'POST',
        url: '/api/tokens',
        remoteAddress: freshIp(),
        headers: { 'user-agent': SAFARI_IPHONE },
        payload: { email: user.email, password: 'wrong password 123' },
      });
      const laptop = await signInWith(CHROME_WINDOWS);
      const phone = await signInWith(SAFARI_IPHONE);
      const third = await signInWith(SAFARI_IPHONE);
      const auth = (token: string) => ({ authorization: `Bearer ${token}` });

      const sessions = (await app.inject({ method: 'GET', url: '/api/v1/profile/sessions', headers: auth(laptop) })).json().sessions;
      expect(sessions).toHaveLength(3);
      expect(sessions[0]).toMatchObject({ current: true, device: { browser: 'Chrome 131', os: 'Windows 10', platform: 'desktop' } });
      expect(sessions[1].device).toMatchObject({ browser: 'Safari 17', os: 'iOS 17.5', platform: 'mobile' });

      const phoneSession = (await app.inject({ method: 'GET', url: '/api/v1/profile/sessions', headers: auth(phone) })).json().sessions[0];
      const one = await app.inject({ method: 'POST', url: `/api/v1/profile/sessions/${phoneSession.id}/revoke`, headers: auth(laptop) });
      expect(one.json()).toEqual({ revoked: 1, current: false });
      // Each instance drops its cached principal on the revocation's NOTIFY (decision 0130).
      await expect.poll(async () => (await app.inject({ method: 'GET', url: '/api/v1/profile', headers: auth(phone) })).statusCode).toBe(401);
      expect((await app.inject({ method: 'POST', url: `/api/v1/profile/sessions/${phoneSession.id}/revoke`, headers: auth(laptop) })).statusCode).toBe(404);

      const others = await app.inject({ method: 'POST', url: '/api/v1/profile/sessions/revokeothers', headers: auth(laptop) });
      expect(others.json()).toEqual({ revoked: 1, current: false });
      await expect.poll(async () => (await app.inject({ method: 'GET', url: '/api/v1/profile', headers: auth(third) })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/v1/profile', headers: auth(laptop) })).statusCode).toBe(200);

      const history = (await app.inject({ method: 'POST', url: '/api/v1/profile/loginhistory', headers: auth(laptop), payload: { pageSize: 20 } })).json();
      const failed = history.data.find((h: { outcome: string }) => h.outcome === 'failure');
      expect(failed).toMatchObject({ event: 'loginFailed', reason: 'invalidPassword', device: { browser: 'Safari 17', os: 'iOS 17.5' } });
      expect(history.data.filter((h: { event: string }) => h.event === 'sessionRevoked')).toHaveLength(2);
    });
  });
});
