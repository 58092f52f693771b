import { randomUUID } from 'node:crypto';
import { compactVerify, errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose';
import { deriveKey } from './token-crypto.ts';

/** .NET claim-type URIs (System.Security.Claims.ClaimTypes); the client keeps their last segment. */
export const ClaimTypes = {
  nameIdentifier: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/nameidentifier',
  email: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
  name: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
  surname: 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname',
} as const;

/** The only signing algorithm accepted (SECURITY.md: algorithm allow-listed). */
export const JWT_ALGORITHM = 'HS256';
/** RFC 9068 media type of access tokens; checked on every request. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
/** The challenge token of POST /tokens: its own type, audience and key, never an access token. */
export const CHALLENGE_TOKEN_TYPE = 'sign-in-challenge+jwt';
export const ACCESS_AUDIENCE = 'exam-portal-api';
export const CHALLENGE_AUDIENCE = 'exam-portal-sign-in';

export interface AccessClaims {
  userId: string;
  tenantId: string;
  email: string;
  firstName: string;
  lastName: string;
  userName: string;
  userType: string | null;
  resellerId: string | null;
  instituteId: string | null;
  isFirstTimeLogin: boolean;
  tokenVersion: number;
  /** The refresh-token family (sign-in session) this access token belongs to. */
  sessionId: string;
}

export interface ChallengeClaims {
  challengeId: string;
  userId: string;
  tenantId: string;
}

export class InvalidTokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(reason === 'expired' ? 'The token has expired.' : 'The token is not valid.');
    this.name = 'InvalidTokenError';
  }
}

export interface JwtSigner {
  signAccessToken(claims: AccessClaims, now: Date, lifetimeSeconds: number): Promise<string>;
  /** Verifies signature, algorithm, `typ`, issuer, audience, `exp` and `nbf` at `now`. */
  verifyAccessToken(token: string, now: Date): Promise<AccessClaims>;
  /**
   * The refresh call carries the expired access token: signature, algorithm, `typ`, issuer and
   * audience are still checked, only the lifetime is not (the refresh family decides that).
   */
  readExpiredAccessToken(token: string): Promise<AccessClaims>;
  signChallengeToken(claims: ChallengeClaims, now: Date, expiresAt: Date): Promise<string>;
  verifyChallengeToken(token: string, now: Date): Promise<ChallengeClaims>;
}

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

function accessPayload(claims: AccessClaims): JWTPayload {
  return {
    [ClaimTypes.nameIdentifier]: claims.userId,
    [ClaimTypes.email]: claims.email,
    [ClaimTypes.name]: claims.firstName,
    [ClaimTypes.surname]: claims.lastName,
    fullName: `${claims.firstName} ${claims.lastName}`.trim(),
    userName: claims.userName,
    tenant: claims.tenantId,
    userType: claims.userType,
    resellerId: claims.resellerId,
    instituteId: claims.instituteId,
    isFirstTimeLogin: claims.isFirstTimeLogin,
    tokenVersion: claims.tokenVersion,
    sid: claims.sessionId,
  };
}

const nullableString = (value: unknown) => (typeof value === 'string' ? value : null);

function accessClaimsOf(payload: JWTPayload): AccessClaims {
  const userId = payload[ClaimTypes.nameIdentifier];
  const tenantId = payload.tenant;
  const tokenVersion = payload.tokenVersion;
  const sessionId = payload.sid;
  if (
    typeof userId !== 'string' ||
    userId !== payload.sub ||
    typeof tenantId !== 'string' ||
    typeof sessionId !== 'string' ||
    typeof tokenVersion !== 'number' ||
    !Number.isInteger(tokenVersion)
  ) {
    throw new InvalidTokenError('invalid');
  }
  return {
    userId,
    tenantId,
    email: String(payload[ClaimTypes.email] ?? ''),
    firstName: String(payload[ClaimTypes.name] ?? ''),
    lastName: String(payload[ClaimTypes.surname] ?? ''),
    userName: String(payload.userName ?? ''),
    userType: nullableString(payload.userType),
    resellerId: nullableString(payload.resellerId),
    instituteId: nullableString(payload.instituteId),
    isFirstTimeLogin: payload.isFirstTimeLogin === true,
    tokenVersion,
    sessionId,
  };
}

function asInvalidToken(error: unknown): InvalidTokenError {
  if (error instanceof InvalidTokenError) return error;
  if (error instanceof joseErrors.JWTExpired) return new InvalidTokenError('expired');
  return new InvalidTokenError('invalid');
}

/** Signs and verifies the two JWT kinds with keys derived from the server's signing secret. */
export function createJwtSigner(secret: string, issuer: string): JwtSigner {
  const accessKey = deriveKey(secret, 'access-token');
  const challengeKey = deriveKey(secret, 'challenge-token');

  return {
    async signAccessToken(claims, now, lifetimeSeconds) {
      const issuedAt = seconds(now);
      return new SignJWT(accessPayload(claims))
        .setProtectedHeader({ alg: JWT_ALGORITHM, typ: ACCESS_TOKEN_TYPE })
        .setIssuer(issuer)
        .setAudience(ACCESS_AUDIENCE)
        .setSubject(claims.userId)
        .setJti(randomUUID())
        .setIssuedAt(issuedAt)
        .setNotBefore(issuedAt)
        .setExpirationTime(issuedAt + lifetimeSeconds)
        .sign(accessKey);
    },

    async verifyAccessToken(token, now) {
      try {
        const { payload } = await jwtVerify(token, accessKey, {
          algorithms: [JWT_ALGORITHM],
          typ: ACCESS_TOKEN_TYPE,
          issuer,
          audience: ACCESS_AUDIENCE,
          currentDate: now,
          requiredClaims: ['exp', 'nbf', 'iat', 'sub', 'jti'],
        });
        return accessClaimsOf(payload);
      } catch (error) {
        throw asInvalidToken(error);
      }
    },

    async readExpiredAccessToken(token) {
      try {
        const { payload: bytes, protectedHeader } = await compactVerify(token, accessKey, { algorithms: [JWT_ALGORITHM] });
        if (protectedHeader.typ !== ACCESS_TOKEN_TYPE) throw new InvalidTokenError('invalid');
        const payload = JSON.parse(new TextDecoder().decode(bytes)) as JWTPayload;
        if (payload.iss !== issuer || payload.aud !== ACCESS_AUDIENCE) throw new InvalidTokenError('invalid');
        return accessClaimsOf(payload);
      } catch (error) {
        throw asInvalidToken(error);
      }
    },

    async signChallengeToken(claims, now, expiresAt) {
      return new SignJWT({ tenant: claims.tenantId })
        .setProtectedHeader({ alg: JWT_ALGORITHM, typ: CHALLENGE_TOKEN_TYPE })
        .setIssuer(issuer)
        .setAudience(CHALLENGE_AUDIENCE)
        .setSubject(claims.userId)
        .setJti(claims.challengeId)
        .setIssuedAt(seconds(now))
        .setNotBefore(seconds(now))
        .setExpirationTime(seconds(expiresAt))
        .sign(challengeKey);
    },

    async verifyChallengeToken(token, now) {
      try {
        const { payload } = await jwtVerify(token, challengeKey, {
          algorithms: [JWT_ALGORITHM],
          typ: CHALLENGE_TOKEN_TYPE,
          issuer,
          audience: CHALLENGE_AUDIENCE,
          currentDate: now,
          requiredClaims: ['exp', 'nbf', 'sub', 'jti'],
        });
        if (typeof payload.tenant !== 'string') throw new InvalidTokenError('invalid');
        return { challengeId: payload.jti!, userId: payload.sub!, tenantId: payload.tenant };
      } catch (error) {
        throw asInvalidToken(error);
      }
    },
  };
}
