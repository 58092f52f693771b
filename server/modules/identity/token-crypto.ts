import { createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { identityLimits } from './identity-limits.ts';

/** URL-safe random secret of `bytes` bytes from the CSPRNG (refresh, reset, confirmation, invitation). */
export function randomToken(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * How long-lived random tokens are stored: their SHA-256. A slow hash adds nothing for 256
 * random bits, and a lookup by hash stays one index probe.
 */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

/** One key per purpose derived from the signing secret, so a token of one kind never verifies as another. */
export function deriveKey(secret: string, purpose: 'access-token' | 'challenge-token' | 'sign-in-code'): Buffer {
  return createHmac('sha256', secret).update(`exam-portal/${purpose}/v1`).digest();
}

/** A code of `identityLimits.code.digits` digits, uniformly drawn from the CSPRNG. */
export function newSignInCode(): string {
  const digits = identityLimits.code.digits;
  return randomInt(0, 10 ** digits)
    .toString()
    .padStart(digits, '0');
}

/**
 * The stored form of an e-mailed code: an HMAC keyed with a server secret and bound to its
 * challenge, so a copied table neither reveals codes nor lets a code of one challenge pass another.
 */
export function signInCodeHash(key: Buffer, challengeId: string, code: string): string {
  return createHmac('sha256', key).update(`${challengeId}:${code}`, 'utf8').digest('base64url');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}
