import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import { signDpopProof } from '#src/lib/security/device-keys.ts';

/** The browser's DPoP proof (docs/decisions/0100) is what the server's verifier (jose, RFC 9449) accepts. */
describe('DPoP proofs of the browser key', () => {
  it('should sign an ES256 dpop+jwt with the public key in its header and htm, htu, iat, jti', async () => {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign', 'verify'])) as CryptoKeyPair;
    const proof = (await signDpopProof(pair, 'POST', 'http://127.0.0.1:8080/api/tokens/refresh?x=1'))!;
    const header = decodeProtectedHeader(proof);
    expect(header).toMatchObject({ typ: 'dpop+jwt', alg: 'ES256', jwk: { kty: 'EC', crv: 'P-256' } });
    expect(header.jwk).not.toHaveProperty('d');
    const { payload } = await jwtVerify(proof, await importJWK(header.jwk as JWK, 'ES256'), { typ: 'dpop+jwt', algorithms: ['ES256'] });
    expect(payload).toMatchObject({ htm: 'POST', htu: 'http://127.0.0.1:8080/api/tokens/refresh', jti: expect.any(String) });
    expect(Math.abs((payload.iat as number) - Date.now() / 1000)).toBeLessThan(5);
    // The same key gives the same thumbprint every time: that is what the session is bound to.
    const again = decodeProtectedHeader((await signDpopProof(pair, 'POST', 'http://x/api/tokens/refresh'))!);
    expect(await calculateJwkThumbprint(again.jwk as JWK)).toBe(await calculateJwkThumbprint(header.jwk as JWK));
  });
});
