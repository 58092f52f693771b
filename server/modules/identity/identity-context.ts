import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import type { ServerConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { ROOT_TENANT } from '#server/db/seed.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { MailDispatcher } from '#server/mail/mail-dispatcher.ts';
import type { JwtSigner } from './jwt-tokens.ts';
import type { PasswordVerifiers } from './password-verifiers.ts';

/** What the identity services need; built once per app in identity-module.ts. */
export interface IdentityContext {
  db: Db;
  clock: Clock;
  config: ServerConfig;
  jwt: JwtSigner;
  /** HMAC key of the e-mailed codes. */
  codeKey: Buffer;
  verifiers: PasswordVerifiers;
  mail: MailDispatcher;
  log: FastifyBaseLogger;
}

/** Who is asking, as far as the request tells before sign-in. */
export interface RequestMeta {
  /** The `tenant` header (spec §7 sends `root`): it only chooses the tenant before sign-in. */
  tenantId: string;
  ip: string | null;
  userAgent: string | null;
  acceptLanguage: string | undefined;
  /** Thumbprint of the key of a valid DPoP proof sent with the request (dpop.ts), if any. */
  dpopJkt?: string;
}

export function requestMeta(request: FastifyRequest): RequestMeta {
  const tenant = request.headers.tenant;
  const userAgent = request.headers['user-agent'];
  return {
    tenantId: typeof tenant === 'string' && tenant.trim() ? tenant.trim() : ROOT_TENANT,
    ip: request.ip || null,
    userAgent: userAgent ? userAgent.slice(0, 512) : null,
    acceptLanguage: request.headers['accept-language'],
  };
}

export const addSeconds = (date: Date, seconds: number) => new Date(date.getTime() + seconds * 1000);
