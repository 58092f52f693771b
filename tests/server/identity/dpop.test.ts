import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createUser, freshIp } from '#tests/setup/test-users.ts';
import { call, codeIn, mailsTo } from './identity-test-kit.ts';

/**
 * Issue 23 / docs/decisions/0100: a session signed in with a DPoP proof is bound to that key;
 * its refresh token, copied out of browser storage, is refused from any other client.
 */
interface Client {
  privateKey: CryptoKey;
  jwk: JWK;
}

async function newClient(): Promise<Client> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: await exportJWK(publicKey) };
}

function proof(client: Client, htm: string, htu: string, overrides: Record<string, unknown> = {}) {
  return new SignJWT({ htm, htu, jti: randomUUID(), iat: Math.floor(Date.now() / 1000), ...overrides })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: client.jwk })
    .sign(client.privateKey);
}

const BASE = 'http://exam-portal.test/api';

describeEachDatabase('DPoP-bound refresh tokens', (get) => {
  async function signInWithKey(client: Client) {
    const { app, db } = get();
    const user = await createUser(db);
    const ip = freshIp();
    const first = await call(app, 'POST', '/api/tokens', { email: user.email, password: user.password }, { ip });
    const [mail] = await mailsTo(app, user.email);
    const verified = await call(
      app,
      'POST',
      '/api/tokens/verifyotp',
      { email: user.email, enteredOTP: codeIn(mail), token: first.json().token },
      {
        ip,
        headers: { dpop: await proof(client, 'POST', `${BASE}/tokens/verifyotp`) },
      },
    );
    expect(verified.statusCode, verified.body).toBe(200);
    return verified.json() as { token: string; refreshToken: string };
  }

  it('should refresh with a proof of the bound key and refuse a copied token from another client', async () => {
    const { app } = get();
    const browser = await newClient();
    const session = await signInWithKey(browser);

    // The thief has both tokens from storage, but not the browser's non-extractable key.
    const withoutProof = await call(app, 'POST', '/api/tokens/refresh', { token: session.token, refreshToken: session.refreshToken });
    expect(withoutProof.statusCode).toBe(401);
    expect(withoutProof.json().reason).toBe('invalidDpopProof');
    const thief = await newClient();
    const otherKey = await call(app, 'POST', '/api/tokens/refresh', session, { headers: { dpop: await proof(thief, 'POST', `${BASE}/tokens/refresh`) } });
    expect(otherKey.statusCode).toBe(401);
    expect(otherKey.json().reason).toBe('invalidDpopProof');

    // The owner's token was not burnt by those attempts.
    const owner = await call(app, 'POST', '/api/tokens/refresh', session, { headers: { dpop: await proof(browser, 'POST', `${BASE}/tokens/refresh`) } });
    expect(owner.statusCode, owner.body).toBe(200);
    expect(Object.keys(owner.json())).toEqual(expect.arrayContaining(['token', 'refreshToken']));
    // ...and the rotated token stays bound.
    const next = owner.json();
    expect((await call(app, 'POST', '/api/tokens/refresh', next)).statusCode).toBe(401);
    expect(
      (await call(app, 'POST', '/api/tokens/refresh', next, { headers: { dpop: await proof(browser, 'POST', `${BASE}/tokens/refresh`) } })).statusCode,
    ).toBe(200);
  });

  it('should refuse proofs for another method or URL, stale ones, and malformed ones', async () => {
    const { app } = get();
    const browser = await newClient();
    const session = await signInWithKey(browser);
    const bad = [
      await proof(browser, 'GET', `${BASE}/tokens/refresh`),
      await proof(browser, 'POST', `${BASE}/tokens/verifyotp`),
      await proof(browser, 'POST', `${BASE}/tokens/refresh`, { iat: Math.floor(Date.now() / 1000) - 3600 }),
      await proof(browser, 'POST', `${BASE}/tokens/refresh`, { jti: undefined }),
      'not-a-jwt',
      (await proof(browser, 'POST', `${BASE}/tokens/refresh`)).replace(/\.[^.]+$/, '.AAAA'),
    ];
    for (const dpop of bad) {
      const res = await call(app, 'POST', '/api/tokens/refresh', session, { headers: { dpop } });
      expect(res.statusCode, dpop).toBe(401);
    }
    expect(
      (await call(app, 'POST', '/api/tokens/refresh', session, { headers: { dpop: await proof(browser, 'POST', `${BASE}/tokens/refresh`) } })).statusCode,
    ).toBe(200);
  });

  // RFC 9449 §4.3 and docs/decisions/0100, at the edges: each refused proof leaves the session usable.
  it('should refuse a proof carrying its private key, dated ahead or undated, with an empty or over-long jti, or over 4096 characters', async () => {
    const { app } = get();
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const browser: Client = { privateKey, jwk: await exportJWK(publicKey) };
    let session = await signInWithKey(browser);
    const refresh = `${BASE}/tokens/refresh`;
    const now = Math.floor(Date.now() / 1000);
    const withPrivateKey = await new SignJWT({ htm: 'POST', htu: refresh, jti: randomUUID(), iat: now })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: await exportJWK(privateKey) })
      .sign(privateKey);
    const refusedProofs: Record<string, string> = {
      'the private key in its header': withPrivateKey,
      'dated ten minutes ahead': await proof(browser, 'POST', refresh, { iat: now + 600 }),
      'with no iat': await proof(browser, 'POST', refresh, { iat: undefined }),
      'with an empty jti': await proof(browser, 'POST', refresh, { jti: '' }),
      'with a jti of 201 characters': await proof(browser, 'POST', refresh, { jti: 'j'.repeat(201) }),
      'of 4097 characters': await proof(browser, 'POST', refresh, { pad: 'p'.repeat(4097) }),
    };
    for (const [what, dpop] of Object.entries(refusedProofs)) {
      const res = await call(app, 'POST', '/api/tokens/refresh', session, { headers: { dpop } });
      expect(res.statusCode, what).toBe(401);
      expect(res.json(), what).toMatchObject({ reason: 'invalidDpopProof', messages: ['The DPoP proof is missing or invalid for this session.'] });
    }
    // Within the edges: five minutes old, a minute ahead, a jti of 200 characters, a query on the URL.
    for (const [what, dpop] of Object.entries({
      'four and a half minutes old': await proof(browser, 'POST', refresh, { iat: now - 270 }),
      'half a minute ahead': await proof(browser, 'POST', refresh, { iat: now + 30 }),
      'a jti of 200 characters': await proof(browser, 'POST', refresh, { jti: 'j'.repeat(200) }),
      'a query and a fragment on its URL': await proof(browser, 'POST', `${refresh}?source=tab#top`),
    })) {
      const res = await call(app, 'POST', '/api/tokens/refresh', session, { headers: { dpop } });
      expect(res.statusCode, `${what}: ${res.body}`).toBe(200);
      session = res.json();
    }
  });

  it('should accept a proof naming the address the request came through (a development proxy), and no other host', async () => {
    const { app } = get();
    const browser = await newClient();
    let session = await signInWithKey(browser);
    const proxied = 'http://exam-proxy.test:5173/api/tokens/refresh';
    const through = await call(app, 'POST', '/api/tokens/refresh', session, {
      headers: { host: 'exam-proxy.test:5173', dpop: await proof(browser, 'POST', proxied) },
    });
    expect(through.statusCode, through.body).toBe(200);
    session = through.json();
    // The same proof sent to the public address names a host the request did not come through.
    const elsewhere = await call(app, 'POST', '/api/tokens/refresh', session, { headers: { dpop: await proof(browser, 'POST', proxied) } });
    expect(elsewhere.statusCode).toBe(401);
  });
});
