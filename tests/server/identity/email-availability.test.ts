import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { call, uniqueEmail } from './identity-test-kit.ts';

/**
 * Issue 23, "validateemail: availability while registering and creating users"
 * (docs/decisions/0282): user administrators are told whether an address is free in their
 * tenant; anyone else still gets the syntax verdict only (SECURITY.md, enumeration).
 */
describeEachDatabase('e-mail availability for user administrators', (get) => {
  let admin: TestUser;
  let candidate: TestUser;
  let existing: TestUser;

  beforeAll(async () => {
    admin = await createSignedInUser(get().app, { roles: ['Admin'] });
    candidate = await createSignedInUser(get().app, { roles: ['Candidate'] });
    existing = await createSignedInUser(get().app, { roles: ['Candidate'] });
  });

  const check = (email: string, token?: string, userId?: string) =>
    call(get().app, 'POST', `/api/users/validateemail?email=${encodeURIComponent(email)}${userId ? `&userId=${userId}` : ''}`, undefined, { token });

  it('should tell a user administrator whether the address is taken in the tenant, whatever its case', async () => {
    const taken = await check(` ${existing.email.toUpperCase()} `, admin.token);
    expect(taken.statusCode).toBe(200);
    expect(taken.json()).toEqual({
      email: existing.email,
      isValid: true,
      isAvailable: false,
      message: 'An account with this e-mail address already exists.',
    });
    const free = await check(uniqueEmail('free'), admin.token);
    expect(free.json()).toMatchObject({ isValid: true, isAvailable: true, message: 'The e-mail address is valid and no other account uses it.' });
  });

  it('should count the edited user’s own address as available to them', async () => {
    const own = await check(existing.email, admin.token, existing.id);
    expect(own.json()).toMatchObject({ isValid: true, isAvailable: true });
    const someoneElse = await check(existing.email, admin.token, candidate.id);
    expect(someoneElse.json()).toMatchObject({ isAvailable: false });
  });

  it('should keep the syntax-only answer for anonymous callers, callers without user administration and unverifiable tokens', async () => {
    for (const token of [undefined, candidate.token, 'not-a-token']) {
      const res = await check(existing.email, token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ email: existing.email, isValid: true, message: 'The e-mail address is valid.' });
    }
  });

  it('should not look availability up for an address that is not valid, and refuse a malformed userId', async () => {
    expect((await check('not an address', admin.token)).json()).toEqual({
      email: 'not an address',
      isValid: false,
      message: 'This is not a valid e-mail address.',
    });
    expect((await check(existing.email, admin.token, 'nope')).statusCode).toBe(400);
  });
});
