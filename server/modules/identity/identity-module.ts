import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailDispatcher, type MailDispatcher } from '#server/mail/mail-dispatcher.ts';
import { accountRoutes } from './account-routes.ts';
import type { IdentityContext } from './identity-context.ts';
import { defaultPasswordVerifiers, type PasswordVerifiers } from './password-verifiers.ts';
import { deriveKey } from './token-crypto.ts';
import { tokenRoutes } from './token-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    identity: IdentityContext;
    /** Account mails on their way out (see mail-dispatcher.ts); tests await `settled()`. */
    accountMail: MailDispatcher;
  }
}

export interface IdentityOptions {
  /** Replaces the verifier of a login type (issue 6 plugs the LDAP bind in as `directory`). */
  passwordVerifiers?: Partial<PasswordVerifiers>;
}

/**
 * The identity services for the whole app (root level, after the authentication plugin):
 * the routes under /api and the users module use the same context.
 */
export const identityPlugin = fp(async function identity(app: FastifyInstance, options: IdentityOptions) {
  const mail = createMailDispatcher(app.mailer, app.log);
  app.decorate('accountMail', mail);
  app.decorate('identity', {
    db: app.db,
    clock: app.clock,
    config: app.config,
    jwt: app.jwtSigner,
    codeKey: deriveKey(app.secrets.jwt, 'sign-in-code'),
    verifiers: { ...defaultPasswordVerifiers, ...options.passwordVerifiers },
    mail,
    log: app.log,
  } satisfies IdentityContext);
  app.addHook('onClose', async () => {
    await mail.settled();
  });
});

/** Routes of spec §7 "Tokens and session" and "Passwords and e-mail", registered under /api. */
export async function identityRoutes(api: FastifyInstance) {
  await api.register(tokenRoutes);
  await api.register(accountRoutes);
}
