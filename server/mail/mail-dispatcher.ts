import type { FastifyBaseLogger } from 'fastify';
import type { Mail, Mailer } from '#server/plugins/mail.ts';

export interface MailDispatcher {
  /**
   * Sends without making the caller wait: a response must not take longer when the account
   * exists (a mail goes out) than when it does not (SECURITY.md "enumeration"). A failed
   * SMTP delivery is queued for retry by the mailer itself.
   */
  dispatch(mail: Mail): void;
  /** Resolves when every mail dispatched so far has been handed over (shutdown, tests). */
  settled(): Promise<void>;
}

export function createMailDispatcher(mailer: Mailer, log: FastifyBaseLogger): MailDispatcher {
  const inFlight = new Set<Promise<void>>();
  return {
    dispatch(mail) {
      const sending = mailer
        .send(mail)
        .catch((error) => log.error({ err: error, subject: mail.subject }, 'mail could not be sent or queued'))
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
    },
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}
