import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import type { FastifyRequest } from 'fastify';
import { AppError } from '#server/lib/errors.ts';

/**
 * DPoP proofs (RFC 9449) binding a refresh-token family to a key pair the browser keeps,
 * non-extractable, in IndexedDB (docs/decisions/0100). A refresh token copied out of browser
 * storage is useless without that key: /tokens/refresh asks for a proof signed with it.
 *
 * The proof is a JWT with `typ: dpop+jwt`, the public key in its `jwk` header, and the claims
 * `htm` (method), `htu` (URL without query), `iat` and `jti`. Only ES256 is accepted: it is what
 * WebCrypto makes non-extractable in every browser.
 */
export const DPOP_HEADER = 'dpop';
const ALGORITHMS = ['ES256'];
/** How far `iat` may lie in the past or the future (seconds): clocks of browsers drift. */
const MAX_AGE_SECONDS = 300;
const MAX_FUTURE_SECONDS = 60;

export const dpopMessages = {
  invalidProof: 'The DPoP proof is missing or invalid for this session.',
} as const;

const refused = () => new AppError(401, dpopMessages.invalidProof, { extra: { reason: 'invalidDpopProof' } });

/** The origins a proof's `htu` may name: PUBLIC_URL's, and the one the request came through (a dev proxy). */
function acceptedUrls(request: FastifyRequest, publicUrl: string): Set<string> {
  const path = request.url.split('?')[0];
  const urls = new Set([new URL(path, `${publicUrl}/`).toString()]);
  const host = request.headers.host;
  if (host) urls.add(`${request.protocol}://${host}${path}`);
  return urls;
}

/**
 * The JWK thumbprint (RFC 7638) of a valid proof for this request, undefined when none was
 * sent; a proof that was sent but is wrong in any way is a 401.
 */
export async function dpopThumbprint(request: FastifyRequest, publicUrl: string, now: Date): Promise<string | undefined> {
  const proof = request.headers[DPOP_HEADER];
  if (proof === undefined) return undefined;
  if (typeof proof !== 'string' || proof.length > 4096) throw refused();
  try {
    const header = decodeProtectedHeader(proof);
    if (header.typ !== 'dpop+jwt' || !header.alg || !ALGORITHMS.includes(header.alg) || !header.jwk) throw refused();
    const jwk = header.jwk as JWK;
    if (jwk.d !== undefined) throw refused(); // a private key has no business in a proof
    const key = await importJWK(jwk, header.alg);
    const { payload } = await jwtVerify(proof, key, { typ: 'dpop+jwt', algorithms: ALGORITHMS, currentDate: now, clockTolerance: MAX_FUTURE_SECONDS });
    const nowSeconds = Math.floor(now.getTime() / 1000);
    if (typeof payload.iat !== 'number' || payload.iat < nowSeconds - MAX_AGE_SECONDS || payload.iat > nowSeconds + MAX_FUTURE_SECONDS) throw refused();
    if (typeof payload.jti !== 'string' || !payload.jti || payload.jti.length > 200) throw refused();
    if (payload.htm !== request.method) throw refused();
    if (typeof payload.htu !== 'string' || !acceptedUrls(request, publicUrl).has(payload.htu.split(/[?#]/)[0])) throw refused();
    return await calculateJwkThumbprint(jwk, 'sha256');
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw refused();
  }
}
