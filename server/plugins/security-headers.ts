import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Runs helmet ONCE with these options and returns the headers it sets. @fastify/helmet builds
 * the helmet middleware again on every request (option parsing, the CSP string, a dozen
 * middleware calls); the headers only depend on the options, so they are computed at start-up.
 * A directive computed per request (a function, e.g. a nonce) cannot be fixed in advance and is
 * refused.
 */
export function computeSecurityHeaders(options: HelmetOptions): Record<string, string> {
  const directives = (options.contentSecurityPolicy as { directives?: Record<string, unknown> } | undefined)?.directives ?? {};
  for (const [name, value] of Object.entries(directives)) {
    const values = Array.isArray(value) ? value : [value];
    if (values.some((v) => typeof v === 'function')) throw new Error(`security headers: directive ${name} is computed per request; not supported`);
  }
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as never, response as never, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure;
  return headers;
}

/**
 * The security headers on every answer (errors and not-found included, as @fastify/helmet set
 * them in onRequest), computed once (issue 22). The options are helmet's.
 */
export const helmetOnce = fp(async function securityHeaders(app: FastifyInstance, options: HelmetOptions) {
  const headers = computeSecurityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
});
