import type { FastifyRequest } from 'fastify';
import type { RateLimitRule } from '#server/plugins/rate-limit.ts';

const perIp = (max: number, windowSeconds: number): RateLimitRule => ({ name: 'ip', max, windowSeconds });

function bodyEmail(request: FastifyRequest): string | undefined {
  const email = (request.body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' && email.trim() ? email.trim().toLowerCase().slice(0, 320) : undefined;
}

/** Every route that mails an address counts against one budget per address, whoever asks. */
const mailsPerAddress: RateLimitRule = { name: 'email', scope: 'account-mail', max: 5, windowSeconds: 60 * 60, key: bodyEmail };

/**
 * Limits of the unauthenticated identity routes (docs/decisions/0033). Per address they are
 * sized for an exam centre: a few hundred candidates behind one NAT address signing in within
 * minutes. Guessing passwords is stopped per account (lockout), not here.
 */
export const identityRateLimits = {
  signIn: [perIp(120, 60)],
  verifyCode: [perIp(120, 60)],
  resendCode: [perIp(60, 60)],
  refresh: [perIp(600, 60)],
  accountMail: [perIp(30, 60), mailsPerAddress],
  resetPassword: [perIp(60, 60)],
  confirmEmail: [perIp(60, 60)],
  validateEmail: [perIp(120, 60)],
  selfRegister: [perIp(60, 10 * 60), mailsPerAddress],
} satisfies Record<string, readonly RateLimitRule[]>;
