import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '#server/lib/errors.ts';
import { createJwtSigner, InvalidTokenError, type AccessClaims, type JwtSigner } from '#server/modules/identity/jwt-tokens.ts';
import { PrincipalCache } from '#server/modules/identity/principal-cache.ts';
import { VerifiedTokenCache } from '#server/modules/identity/verified-token-cache.ts';
import type { Authenticator } from './access.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs and verifies access and challenge tokens with keys derived from the JWT secret. */
    jwtSigner: JwtSigner;
    /** The Authenticator the access plugin calls for every non-public route. */
    authenticate: Authenticator;
    /** Callers of recent requests, dropped on the database's revocation signals. */
    principalCache: PrincipalCache;
  }
  interface FastifyRequest {
    /** The verified access token of the request, once authenticated. */
    accessToken: AccessClaims | null;
  }
}

const bearerPattern = /^Bearer[ ]+([A-Za-z0-9_.~+/=-]+)$/i;

/** 401 with the RFC 6750 challenge, in the spec's error body. */
function refused(message: string, error?: 'invalid_token'): AppError {
  const challenge = error ? `Bearer error="${error}", error_description="${message}"` : 'Bearer';
  return new AppError(401, message, { headers: { 'www-authenticate': challenge } });
}

export const authenticationMessages = {
  missing: 'Authentication failed.',
  expired: 'The access token has expired.',
  invalid: 'The access token is not valid.',
  ended: 'The session has ended. Please sign in again.',
} as const;

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  return bearerPattern.exec(header.trim())?.[1];
}

/**
 * Verifies the bearer access token (HS256 only, `typ` at+jwt, issuer, audience, exp, nbf),
 * then loads the user, its permissions and its session in one query: a deactivated user, a
 * bumped token version (logout, password change) or a revoked session fails at once. Both
 * answers are kept between requests (docs/decisions/0130): a verified token until its `exp`,
 * a principal until the database signals a change of it. The
 * tenant is the token's; the `tenant` header is ignored once signed in.
 */
export const authenticationPlugin = fp(async function authentication(app: FastifyInstance) {
  const signer = createJwtSigner(app.secrets.jwt, app.config.publicUrl);
  app.decorate('jwtSigner', signer);
  app.decorateRequest('accessToken', null);
  const principals = new PrincipalCache(app.db);
  await principals.start();
  app.decorate('principalCache', principals);
  app.addHook('onClose', async () => principals.stop());
  const verifiedTokens = new VerifiedTokenCache(signer);

  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw refused(authenticationMessages.missing);
    const now = app.clock.now();
    let claims: AccessClaims;
    try {
      claims = await verifiedTokens.verify(token, now);
    } catch (error) {
      if (error instanceof InvalidTokenError && error.reason === 'expired') {
        throw refused(authenticationMessages.expired, 'invalid_token');
      }
      throw refused(authenticationMessages.invalid, 'invalid_token');
    }
    const principal = await principals.load(claims, now);
    if (!principal) throw refused(authenticationMessages.ended, 'invalid_token');
    request.accessToken = claims;
    return principal;
  });
});
