import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '#server/lib/errors.ts';
import { dpopThumbprint } from '#server/modules/identity/dpop.ts';

/**
 * A DPoP proof (RFC 9449 §4.3, docs/decisions/0100) judged at its edges, on a fixed clock: the
 * limits written here are the decision's (at most 5 minutes old, 1 minute ahead, a jti of at
 * most 200 characters, a proof of at most 4,096), not read from the code.
 */
const PUBLIC_URL = 'https://exam-portal.test';
const NOW = new Date('2026-12-07T08:00:00.000Z');
const nowSeconds = NOW.getTime() / 1000;

let privateKey: CryptoKey;
let jwk: JWK;
let privateJwk: JWK;
beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  privateKey = pair.privateKey as CryptoKey;
  jwk = await exportJWK(pair.publicKey);
  privateJwk = await exportJWK(pair.privateKey);
});

function request(dpop: unknown, options: { method?: string; url?: string; host?: string } = {}): FastifyRequest {
  return {
    method: options.method ?? 'POST',
    url: options.url ?? '/api/tokens/refresh?x=1',
    protocol: 'http',
    headers: { ...(dpop === undefined ? {} : { dpop }), ...(options.host ? { host: options.host } : {}) },
  } as unknown as FastifyRequest;
}

function proof(claims: Record<string, unknown> = {}, header: Record<string, unknown> = {}) {
  return new SignJWT({ htm: 'POST', htu: `${PUBLIC_URL}/api/tokens/refresh`, jti: randomUUID(), iat: nowSeconds, ...claims })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk, ...header })
    .sign(privateKey);
}

async function refusal(dpop: unknown, options?: Parameters<typeof request>[1]) {
  const error = await dpopThumbprint(request(dpop, options), PUBLIC_URL, NOW).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, 'refused').toBeInstanceOf(AppError);
  const app = error as AppError;
  return { status: app.statusCode, messages: app.messages, extra: app.extra };
}

const REFUSED = { status: 401, messages: ['The DPoP proof is missing or invalid for this session.'], extra: { reason: 'invalidDpopProof' } };

describe('a DPoP proof at its edges', () => {
  it('should answer no thumbprint when no proof was sent, and the key’s thumbprint for a good one', async () => {
    expect(await dpopThumbprint(request(undefined), PUBLIC_URL, NOW)).toBeUndefined();
    expect(await dpopThumbprint(request(await proof()), PUBLIC_URL, NOW)).toBe(await calculateJwkThumbprint(jwk, 'sha256'));
  });

  it('should take a proof from exactly five minutes ago and one a minute ahead, and not a second beyond either', async () => {
    expect(await dpopThumbprint(request(await proof({ iat: nowSeconds - 300 })), PUBLIC_URL, NOW)).toBeDefined();
    expect(await dpopThumbprint(request(await proof({ iat: nowSeconds + 60 })), PUBLIC_URL, NOW)).toBeDefined();
    expect(await refusal(await proof({ iat: nowSeconds - 301 }))).toEqual(REFUSED);
    expect(await refusal(await proof({ iat: nowSeconds + 61 }))).toEqual(REFUSED);
    expect(await refusal(await proof({ iat: undefined }))).toEqual(REFUSED);
  });

  it('should take a jti of 200 characters and the longest proof within 4,096, and refuse 201, an empty jti and one character more', async () => {
    expect(await dpopThumbprint(request(await proof({ jti: 'j'.repeat(200) })), PUBLIC_URL, NOW)).toBeDefined();
    expect(await refusal(await proof({ jti: 'j'.repeat(201) }))).toEqual(REFUSED);
    expect(await refusal(await proof({ jti: '' }))).toEqual(REFUSED);
    expect(await refusal(await proof({ jti: 7 }))).toEqual(REFUSED);
    // The longest proof within the limit, and the same one a character of padding longer.
    const padded = (n: number) => proof({ pad: 'p'.repeat(n), jti: 'fixed-jti' });
    let n = Math.floor(((4096 - (await padded(0)).length) * 3) / 4) - 6;
    while ((await padded(n + 1)).length <= 4096) n += 1;
    const longest = await padded(n);
    const over = await padded(n + 1);
    expect([longest.length <= 4096, over.length > 4096]).toEqual([true, true]);
    expect(await dpopThumbprint(request(longest), PUBLIC_URL, NOW)).toBeDefined();
    expect(await refusal(over)).toEqual(REFUSED);
    expect(await refusal(['a', 'b'])).toEqual(REFUSED);
  });

  it('should refuse a proof with its private key, another type, another algorithm or no key', async () => {
    const withPrivate = await new SignJWT({ htm: 'POST', htu: `${PUBLIC_URL}/api/tokens/refresh`, jti: randomUUID(), iat: nowSeconds })
      .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: privateJwk })
      .sign(privateKey);
    expect(await refusal(withPrivate)).toEqual(REFUSED);
    expect(await refusal(await proof({}, { typ: 'JWT' }))).toEqual(REFUSED);
    const hmac = new TextEncoder().encode('a shared secret of thirty-two bytes!');
    const symmetric = await new SignJWT({ htm: 'POST', htu: `${PUBLIC_URL}/api/tokens/refresh`, jti: randomUUID(), iat: nowSeconds })
      .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: { kty: 'oct', k: Buffer.from(hmac).toString('base64url') } as JWK })
      .sign(hmac);
    expect(await refusal(symmetric)).toEqual(REFUSED);
    expect(await refusal(await proof({}, { jwk: undefined }))).toEqual(REFUSED);
    expect(await refusal('not-a-jwt')).toEqual(REFUSED);
  });

  it('should name this method and this address: the public one, or the one the request came through', async () => {
    expect(await refusal(await proof({ htm: 'GET' }))).toEqual(REFUSED);
    expect(await refusal(await proof({ htu: `${PUBLIC_URL}/api/tokens/verifyotp` }))).toEqual(REFUSED);
    expect(await refusal(await proof({ htu: 42 }))).toEqual(REFUSED);
    expect(await dpopThumbprint(request(await proof({ htu: `${PUBLIC_URL}/api/tokens/refresh?y=2#z` })), PUBLIC_URL, NOW)).toBeDefined();
    const proxied = await proof({ htu: 'http://localhost:5173/api/tokens/refresh' });
    expect(await dpopThumbprint(request(proxied, { host: 'localhost:5173' }), PUBLIC_URL, NOW)).toBeDefined();
    expect(await refusal(proxied, { host: 'exam-portal.test' })).toEqual(REFUSED);
    expect(await refusal(proxied)).toEqual(REFUSED);
  });
});
