import { decodeJwt, decodeProtectedHeader, SignJWT, type JWTPayload } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { createJwtSigner, InvalidTokenError, type AccessClaims, type JwtSigner } from '#server/modules/identity/jwt-tokens.ts';
import { deriveKey } from '#server/modules/identity/token-crypto.ts';

/**
 * The two JWT kinds at their edges, on a fixed clock and without a database (SECURITY.md: one
 * allow-listed algorithm, RFC 9068 `at+jwt`, issuer, audience and lifetime checked on every
 * request; the challenge token of POST /tokens is never an access token). The expected values are
 * written from those rules, and the hostile tokens are signed here with the server's own derived
 * key, so that each check is what refuses them and not the signature.
 */
const SECRET = 'a signing secret of the test server, long enough';
const ISSUER = 'https://exam-portal.test';
const NOW = new Date('2026-12-07T11:00:00.000Z');
const nowSeconds = NOW.getTime() / 1000;
const LIFETIME = 900;
const at = (offsetSeconds: number) => new Date(NOW.getTime() + offsetSeconds * 1000);

const NAME_ID = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier';
const EMAIL = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress';
const GIVEN_NAME = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name';
const SURNAME = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname';

const claims: AccessClaims = {
  userId: 'user-1',
  tenantId: 'tenant-1',
  email: 'asha@example.test',
  firstName: 'Asha',
  lastName: 'Rao',
  userName: 'asha',
  userType: 'Candidate',
  resellerId: 'reseller-1',
  instituteId: 'institute-1',
  isFirstTimeLogin: true,
  tokenVersion: 3,
  sessionId: 'session-1',
};

// A new signer for each test: its keys are derived when it is made, and a signer made once at
// import would keep them through a mutation run's later mutants.
let signer: JwtSigner;
beforeEach(() => {
  signer = createJwtSigner(SECRET, ISSUER);
});

/** A payload as the server writes it, to be changed one claim at a time. */
function accessPayload(overrides: JWTPayload = {}): JWTPayload {
  return {
    [NAME_ID]: 'user-1',
    [EMAIL]: 'asha@example.test',
    [GIVEN_NAME]: 'Asha',
    [SURNAME]: 'Rao',
    userName: 'asha',
    tenant: 'tenant-1',
    userType: 'Candidate',
    resellerId: null,
    instituteId: null,
    isFirstTimeLogin: false,
    tokenVersion: 1,
    sid: 'session-1',
    iss: ISSUER,
    aud: 'exam-portal-api',
    sub: 'user-1',
    jti: 'jti-1',
    iat: nowSeconds,
    nbf: nowSeconds,
    exp: nowSeconds + LIFETIME,
    ...overrides,
  };
}

/** Signs `payload` with the server's access key (or `key`), HS256 and `at+jwt` unless told otherwise. */
async function craft(payload: JWTPayload, header: { alg?: string; typ?: string } = {}, purpose: 'access-token' | 'challenge-token' = 'access-token') {
  const defined = Object.fromEntries(Object.entries(payload).filter(([, value]) => value !== undefined));
  return new SignJWT(defined).setProtectedHeader({ alg: header.alg ?? 'HS256', typ: header.typ ?? 'at+jwt' }).sign(deriveKey(SECRET, purpose));
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(InvalidTokenError);
  return (error as InvalidTokenError).reason;
}

describe('the refusal', () => {
  it('should say in its message, for the log, whether the token had expired or was not valid', () => {
    expect(new InvalidTokenError('expired')).toMatchObject({ name: 'InvalidTokenError', reason: 'expired', message: 'The token has expired.' });
    expect(new InvalidTokenError('invalid')).toMatchObject({ name: 'InvalidTokenError', reason: 'invalid', message: 'The token is not valid.' });
  });
});

describe('an access token as signed', () => {
  it('should carry the claims under their .NET names, the full name, the session and the registered claims', async () => {
    const token = await signer.signAccessToken({ ...claims, lastName: '' }, NOW, LIFETIME);
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'at+jwt' });
    const payload = decodeJwt(token);
    expect(payload).toMatchObject({
      [NAME_ID]: 'user-1',
      [EMAIL]: 'asha@example.test',
      [GIVEN_NAME]: 'Asha',
      [SURNAME]: '',
      fullName: 'Asha',
      userName: 'asha',
      tenant: 'tenant-1',
      userType: 'Candidate',
      resellerId: 'reseller-1',
      instituteId: 'institute-1',
      isFirstTimeLogin: true,
      tokenVersion: 3,
      sid: 'session-1',
      iss: ISSUER,
      aud: 'exam-portal-api',
      sub: 'user-1',
      iat: nowSeconds,
      nbf: nowSeconds,
      exp: nowSeconds + LIFETIME,
    });
    expect(payload.jti).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const again = decodeJwt(await signer.signAccessToken(claims, NOW, LIFETIME));
    expect(again.jti).not.toBe(payload.jti);
    expect(again.fullName).toBe('Asha Rao');
  });

  it('should verify back to the same claims, on another signer with the same secret too', async () => {
    const token = await signer.signAccessToken(claims, NOW, LIFETIME);
    await expect(signer.verifyAccessToken(token, NOW)).resolves.toEqual(claims);
    await expect(createJwtSigner(SECRET, ISSUER).verifyAccessToken(token, at(60))).resolves.toEqual(claims);
  });
});

describe('an access token refused', () => {
  it('should last exactly its lifetime: valid a second before it ends, expired from then on', async () => {
    const token = await signer.signAccessToken(claims, NOW, LIFETIME);
    await expect(signer.verifyAccessToken(token, at(LIFETIME - 1))).resolves.toEqual(claims);
    expect(await refusal(signer.verifyAccessToken(token, at(LIFETIME)))).toBe('expired');
    expect(await refusal(signer.verifyAccessToken(token, at(LIFETIME + 3600)))).toBe('expired');
  });

  it('should not be valid before it was issued', async () => {
    const token = await signer.signAccessToken(claims, NOW, LIFETIME);
    expect(await refusal(signer.verifyAccessToken(token, at(-1)))).toBe('invalid');
  });

  it('should refuse another secret, another issuer and the challenge key', async () => {
    const token = await signer.signAccessToken(claims, NOW, LIFETIME);
    expect(await refusal(createJwtSigner('another secret of the same length, or not', ISSUER).verifyAccessToken(token, NOW))).toBe('invalid');
    expect(await refusal(createJwtSigner(SECRET, 'https://elsewhere.test').verifyAccessToken(token, NOW))).toBe('invalid');
    expect(await refusal(signer.verifyAccessToken(await craft(accessPayload(), {}, 'challenge-token'), NOW))).toBe('invalid');
  });

  it('should refuse a challenge token, a malformed token and an empty one', async () => {
    const challenge = await signer.signChallengeToken({ challengeId: 'c-1', userId: 'user-1', tenantId: 'tenant-1' }, NOW, at(300));
    expect(await refusal(signer.verifyAccessToken(challenge, NOW))).toBe('invalid');
    expect(await refusal(signer.verifyAccessToken('not.a.token', NOW))).toBe('invalid');
    expect(await refusal(signer.verifyAccessToken('', NOW))).toBe('invalid');
  });

  it('should accept the crafted baseline, so each refusal below is its one change', async () => {
    await expect(signer.verifyAccessToken(await craft(accessPayload()), NOW)).resolves.toMatchObject({ userId: 'user-1', sessionId: 'session-1' });
  });

  it.each([
    ['another type', {}, { typ: 'JWT' }],
    ['HS512 with the same key', {}, { alg: 'HS512' }],
    ['HS384 with the same key', {}, { alg: 'HS384' }],
    ['another audience', { aud: 'exam-portal-sign-in' }, {}],
    ['another issuer', { iss: 'https://elsewhere.test' }, {}],
    ['no expiry', { exp: undefined }, {}],
    ['no not-before', { nbf: undefined }, {}],
    ['no issued-at', { iat: undefined }, {}],
    ['no subject', { sub: undefined }, {}],
    ['no token id', { jti: undefined }, {}],
    ['a subject other than the user', { sub: 'user-2' }, {}],
    ['no user', { [NAME_ID]: undefined }, {}],
    ['a user that is not a string', { [NAME_ID]: 1, sub: '1' }, {}],
    ['no tenant', { tenant: undefined }, {}],
    ['a tenant that is not a string', { tenant: 7 }, {}],
    ['no session', { sid: undefined }, {}],
    ['a session that is not a string', { sid: 1 }, {}],
    ['no token version', { tokenVersion: undefined }, {}],
    ['a token version as text', { tokenVersion: '1' }, {}],
    ['a fractional token version', { tokenVersion: 1.5 }, {}],
  ] as Array<[string, JWTPayload, { alg?: string; typ?: string }]>)('should refuse %s', async (_name, overrides, header) => {
    const token = await craft(accessPayload(overrides), header);
    expect(await refusal(signer.verifyAccessToken(token, NOW))).toBe('invalid');
  });

  it('should read what is missing or of another kind in the optional claims as empty, never as the raw value', async () => {
    const token = await craft(
      accessPayload({
        [EMAIL]: undefined,
        [GIVEN_NAME]: undefined,
        [SURNAME]: undefined,
        userName: undefined,
        userType: 5,
        resellerId: { id: 'r' },
        instituteId: true,
        isFirstTimeLogin: 'true',
        tokenVersion: 0,
      }),
    );
    await expect(signer.verifyAccessToken(token, NOW)).resolves.toEqual({
      userId: 'user-1',
      tenantId: 'tenant-1',
      email: '',
      firstName: '',
      lastName: '',
      userName: '',
      userType: null,
      resellerId: null,
      instituteId: null,
      isFirstTimeLogin: false,
      tokenVersion: 0,
      sessionId: 'session-1',
    });
  });
});

describe('an expired access token read for the refresh call', () => {
  it('should give the claims of a token long expired, and of one still valid', async () => {
    const token = await signer.signAccessToken(claims, at(-86_400), LIFETIME);
    await expect(signer.readExpiredAccessToken(token)).resolves.toEqual(claims);
    await expect(signer.readExpiredAccessToken(await signer.signAccessToken(claims, NOW, LIFETIME))).resolves.toEqual(claims);
  });

  it.each([
    ['another type', {}, { typ: 'JWT' }],
    ['HS512 with the same key', {}, { alg: 'HS512' }],
    ['another audience', { aud: 'exam-portal-sign-in' }, {}],
    ['an audience list', { aud: ['exam-portal-api'] }, {}],
    ['another issuer', { iss: 'https://elsewhere.test' }, {}],
    ['no issuer', { iss: undefined }, {}],
    ['a subject other than the user', { sub: 'user-2' }, {}],
    // The refresh read does not require a subject: a token with neither user nor subject is still no one's.
    ['neither user nor subject', { [NAME_ID]: undefined, sub: undefined }, {}],
    ['no session', { sid: undefined }, {}],
  ] as Array<[string, JWTPayload, { alg?: string; typ?: string }]>)('should refuse %s', async (_name, overrides, header) => {
    const token = await craft(accessPayload({ iat: nowSeconds - 86_400, nbf: nowSeconds - 86_400, exp: nowSeconds - 86_400 + LIFETIME, ...overrides }), header);
    expect(await refusal(signer.readExpiredAccessToken(token))).toBe('invalid');
  });

  it('should refuse another key, a challenge token and a malformed token, never as "expired"', async () => {
    const token = await signer.signAccessToken(claims, at(-86_400), LIFETIME);
    expect(await refusal(createJwtSigner('another secret of the same length, or not', ISSUER).readExpiredAccessToken(token))).toBe('invalid');
    expect(await refusal(createJwtSigner(SECRET, 'https://elsewhere.test').readExpiredAccessToken(token))).toBe('invalid');
    const challenge = await signer.signChallengeToken({ challengeId: 'c-1', userId: 'user-1', tenantId: 'tenant-1' }, NOW, at(300));
    expect(await refusal(signer.readExpiredAccessToken(challenge))).toBe('invalid');
    expect(await refusal(signer.readExpiredAccessToken('a.b.c'))).toBe('invalid');
    const [header, , signature] = token.split('.');
    const notJson = Buffer.from('not json').toString('base64url');
    expect(await refusal(signer.readExpiredAccessToken(`${header}.${notJson}.${signature}`))).toBe('invalid');
  });
});

describe('the sign-in challenge token', () => {
  const challenge = { challengeId: 'challenge-1', userId: 'user-1', tenantId: 'tenant-1' };
  /** The challenge token's payload as the server writes it, to be changed one claim at a time. */
  const challengePayload = (overrides: JWTPayload = {}): JWTPayload => ({
    tenant: 'tenant-1',
    iss: ISSUER,
    aud: 'exam-portal-sign-in',
    sub: 'user-1',
    jti: 'challenge-1',
    iat: nowSeconds,
    nbf: nowSeconds,
    exp: nowSeconds + 300,
    ...overrides,
  });

  it('should carry the challenge as its id, the user as subject and the tenant, under its own type and audience', async () => {
    const token = await signer.signChallengeToken(challenge, NOW, at(300));
    expect(decodeProtectedHeader(token)).toEqual({ alg: 'HS256', typ: 'sign-in-challenge+jwt' });
    expect(decodeJwt(token)).toEqual(challengePayload());
    await expect(signer.verifyChallengeToken(token, at(299))).resolves.toEqual(challenge);
  });

  it('should expire at the time it was given, and not be valid before it was issued', async () => {
    const token = await signer.signChallengeToken(challenge, NOW, at(300));
    expect(await refusal(signer.verifyChallengeToken(token, at(300)))).toBe('expired');
    expect(await refusal(signer.verifyChallengeToken(token, at(-1)))).toBe('invalid');
  });

  it('should refuse an access token, another issuer and another secret', async () => {
    const access = await signer.signAccessToken(claims, NOW, LIFETIME);
    expect(await refusal(signer.verifyChallengeToken(access, NOW))).toBe('invalid');
    const token = await signer.signChallengeToken(challenge, NOW, at(300));
    expect(await refusal(createJwtSigner(SECRET, 'https://elsewhere.test').verifyChallengeToken(token, NOW))).toBe('invalid');
    expect(await refusal(createJwtSigner('another secret of the same length, or not', ISSUER).verifyChallengeToken(token, NOW))).toBe('invalid');
  });

  it('should accept the crafted baseline, so each refusal below is its one change', async () => {
    const token = await craft(challengePayload(), { typ: 'sign-in-challenge+jwt' }, 'challenge-token');
    await expect(signer.verifyChallengeToken(token, NOW)).resolves.toEqual(challenge);
  });

  it.each([
    ['the access type', {}, { typ: 'at+jwt' }],
    ['HS512 with the same key', {}, { alg: 'HS512' }],
    ['the access audience', { aud: 'exam-portal-api' }, {}],
    ['no tenant', { tenant: undefined }, {}],
    ['a tenant that is not a string', { tenant: 1 }, {}],
    ['no subject', { sub: undefined }, {}],
    ['no challenge id', { jti: undefined }, {}],
    ['no expiry', { exp: undefined }, {}],
    ['no not-before', { nbf: undefined }, {}],
  ] as Array<[string, JWTPayload, { alg?: string; typ?: string }]>)('should refuse %s', async (_name, overrides, header) => {
    const token = await craft(challengePayload(overrides), { typ: 'sign-in-challenge+jwt', ...header }, 'challenge-token');
    expect(await refusal(signer.verifyChallengeToken(token, NOW))).toBe('invalid');
  });
});
