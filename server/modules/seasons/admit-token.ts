import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The admit card's signed token (docs/decisions/0154): `<payload>.<signature>`, both base64url;
 * the payload is `{t: tenant, r: registration id, n: roll number, v: admit-card version}` and the
 * signature HMAC-SHA256 over the payload text with the server's admit-card key. Short enough for
 * a QR code an invigilator scans, and typed by hand when the scanner fails.
 */
export interface AdmitClaims {
  t: string;
  r: number;
  n: string;
  v: number;
}

const sign = (key: string, payload: string) => createHmac('sha256', key).update(payload).digest('base64url');

export function signAdmitToken(key: string, claims: AdmitClaims): string {
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(key, payload)}`;
}

/** The claims of a token whose signature is the server's; undefined for anything forged, altered or malformed. */
export function readAdmitToken(key: string, token: string): AdmitClaims | undefined {
  const match = /^([A-Za-z0-9_-]{1,1000})\.([A-Za-z0-9_-]{43})$/.exec(token.trim());
  if (!match) return undefined;
  const expected = Buffer.from(sign(key, match[1]));
  const given = Buffer.from(match[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as AdmitClaims;
    if (typeof claims.t !== 'string' || !Number.isInteger(claims.r) || typeof claims.n !== 'string' || !Number.isInteger(claims.v)) return undefined;
    return claims;
  } catch {
    return undefined;
  }
}
