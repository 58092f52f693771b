import { decodeJwt } from 'jose';
import type { AccessClaims, JwtSigner } from './jwt-tokens.ts';

interface Verified {
  claims: AccessClaims;
  /** Seconds since the epoch, as in the token. */
  notBefore: number;
  expiresAt: number;
}

/**
 * Access tokens whose signature, algorithm, type, issuer and audience were verified once
 * (docs/decisions/0130). A token is the same bytes on every request of its lifetime, so the
 * HMAC need not be computed again: a kept token is only checked against the clock, exactly as
 * jose does (`nbf` ≤ now < `exp`, no tolerance). Keyed by the whole token, so nothing unverified
 * can match; revocation is not decided here but by the principal.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, Verified>();

  constructor(
    private readonly signer: Pick<JwtSigner, 'verifyAccessToken'>,
    private readonly maxEntries = 10_000,
  ) {}

  async verify(token: string, now: Date): Promise<AccessClaims> {
    const seconds = Math.floor(now.getTime() / 1000);
    const kept = this.entries.get(token);
    if (kept && kept.notBefore <= seconds && seconds < kept.expiresAt) return kept.claims;
    if (kept) this.entries.delete(token);
    // Expired or not yet valid: the signer says which, with the error the caller expects.
    const claims = await this.signer.verifyAccessToken(token, now);
    const { exp, nbf } = decodeJwt(token);
    if (typeof exp === 'number' && typeof nbf === 'number') {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(token, { claims, notBefore: nbf, expiresAt: exp });
    }
    return claims;
  }
}
