import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import nodemailer from 'nodemailer';
import type { Db } from '#server/db/client.ts';
import { enqueueJob, type JobHandler } from '#server/lib/jobs.ts';
import { errorBody } from './errors.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  readonly mode: 'smtp' | 'outbox';
  /** Sends now; a failed SMTP delivery is queued as a `mail.send` job and retried. */
  send(mail: Mail): Promise<void>;
  /** The job handler that retries queued mails. */
  retryHandler: JobHandler;
}

declare module 'fastify' {
  interface FastifyInstance {
    mailer: Mailer;
  }
}

export function createMailer(db: Db, options: { smtpUrl?: string; from: string; log: FastifyInstance['log'] }): Mailer {
  if (!options.smtpUrl) {
    return {
      mode: 'outbox',
      async send(mail) {
        await db.query(`insert into mail_outbox (to_address, subject, text_body, html_body) values ($1, $2, $3, $4)`, [
          mail.to,
          mail.subject,
          mail.text,
          mail.html,
        ]);
        options.log.info({ to: mail.to, subject: mail.subject }, 'mail kept in the outbox (no SMTP_URL)');
      },
      retryHandler: async () => {},
    };
  }
  const transport = nodemailer.createTransport(options.smtpUrl);
  const deliver = (mail: Mail) => transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
  return {
    mode: 'smtp',
    async send(mail) {
      try {
        await deliver(mail);
      } catch (error) {
        options.log.warn({ err: error, to: mail.to }, 'SMTP delivery failed; queued for retry');
        await enqueueJob(db, 'mail.send', mail, { runAfterSeconds: 30 });
      }
    },
    retryHandler: async (job) => {
      await deliver(job.payload as unknown as Mail);
    },
  };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

interface OutboxRow {
  to: string;
  subject: string;
  text: string;
  html: string;
  sentAt: Date;
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4.startsWith('127.') || address === '::1' || address.toLowerCase() === 'localhost';
}

/**
 * Whether the dev mailbox may run (issue 23): it shows reset links, so whoever reads it can
 * take over any account. Only without SMTP, never in production, and only when the server
 * listens on loopback, unless DEV_MAILBOX=1 says a non-loopback HOST is meant (it then still
 * answers loopback clients only, e.g. through an SSH tunnel).
 */
export function devMailboxDecision(config: { host: string; production: boolean; devMailboxAnyHost: boolean }, mailMode: string) {
  if (mailMode !== 'outbox' || config.production) return { on: false, reason: undefined } as const;
  if (!isLoopbackAddress(config.host) && !config.devMailboxAnyHost) {
    return { on: false, reason: `HOST ${config.host} is not a loopback address; set DEV_MAILBOX=1 to keep the dev mailbox (loopback clients only)` } as const;
  }
  return { on: true, reason: undefined } as const;
}

/** `/dev/mailbox` and `/dev/mailbox.json`: outbox mode only, never in production, loopback clients only. */
export const devMailboxPlugin = fp(async function devMailbox(app: FastifyInstance, opts: { db: Db }) {
  // As if the route did not exist: another machine learns nothing.
  const loopbackOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (isLoopbackAddress(request.socket.remoteAddress)) return;
    const path = request.url.split('?')[0];
    return reply.status(404).send(errorBody(404, [`The resource ${request.method} ${path} was not found.`], `${request.method} ${path}`));
  };

  const read = async (to: string | undefined, limit: number) =>
    (
      await opts.db.query<OutboxRow>(
        `select to_address as "to", subject, text_body as text, html_body as html, sent_at as "sentAt"
         from mail_outbox where ($1::text is null or lower(to_address) = lower($1))
         order by sent_at desc, id desc limit $2`,
        [to ?? null, limit],
      )
    ).rows;

  app.get<{ Querystring: { to?: string } }>(
    '/dev/mailbox.json',
    {
      onRequest: loopbackOnly,
      config: { access: 'public' },
      schema: {
        hide: true,
        querystring: { type: 'object', properties: { to: { type: 'string', maxLength: 320 } } },
      },
    },
    async (request) => read(request.query.to || undefined, 200),
  );

  app.get('/dev/mailbox', { onRequest: loopbackOnly, config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    const mails = await read(undefined, 100);
    const items = mails
      .map(
        (m) => `<article><h2>${escapeHtml(m.subject)}</h2>
<p><strong>To:</strong> ${escapeHtml(m.to)} · <time>${m.sentAt.toISOString()}</time></p>
<pre>${escapeHtml(m.text)}</pre></article>`,
      )
      .join('\n');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dev mailbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}article{border-bottom:1px solid #ccc;padding:1rem 0}pre{white-space:pre-wrap}</style>
</head><body><main><h1>Dev mailbox</h1><p>Mails kept in the outbox because no SMTP_URL is set (newest first).</p>
${items || '<p>No mail yet.</p>'}</main></body></html>`;
  });
});
