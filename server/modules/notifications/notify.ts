import type { NotificationDto } from '#machines/realtime-protocol.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import { enqueueJob, type Job } from '#server/lib/jobs.ts';
import { DEFAULT_MAIL_LANGUAGE, matchLanguage, type MailLanguage } from '#server/mail/mail-language.ts';
import { notificationMail, type NotificationParams } from '#server/mail/notification-mails.ts';
import type { Mailer } from '#server/plugins/mail.ts';
import { appendEvent } from '#server/modules/realtime/realtime-repository.ts';
import { wantsEmail, wantsInApp, type NotificationChannel, type NotificationKind } from './notification-kinds.ts';
import { channelOf, insertNotification, unreadCount } from './notifications-repository.ts';

/** The job that sends a notification's e-mail (queued in the notifying transaction, sent after commit). */
export const NOTIFICATION_MAIL_JOB = 'notification.mail';

export interface NotifyPayload {
  params?: NotificationParams;
  /** The client path of the record (`/tickets/12`). */
  link?: string | null;
  /** A translation key of the `notifications` namespace; `kinds.<kind>` by default. */
  titleKey?: string;
  /** false: the caller sends its own e-mail (it asks `result.email` whether to). */
  mail?: boolean;
}

export interface NotifyResult {
  channel: NotificationChannel;
  notification: NotificationDto | null;
  /** Whether the user wants an e-mail of it (queued here unless `mail: false`). */
  email: boolean;
  language: MailLanguage;
}

interface NotificationMailPayload {
  kind: NotificationKind;
  language: MailLanguage;
  to: string;
  name: string;
  params: NotificationParams;
  link: string | null;
}

const isDb = (db: Queryable): db is Db => typeof (db as Db).transaction === 'function';

/**
 * Tells a user about something (issue 21, docs/decisions/0260), as they chose for the kind:
 * a row in their notification center, pushed over the hub (`notification.created`), and/or an
 * e-mail in their saved language. Call it inside the transaction of the change (then it all
 * commits or rolls back with it), or with the Db (then it runs in a transaction of its own).
 * Inactive or unknown users are not notified.
 */
export async function notify(db: Queryable, userId: string, kind: NotificationKind, payload: NotifyPayload = {}): Promise<NotifyResult | null> {
  if (isDb(db)) return db.transaction((tx) => notify(tx, userId, kind, payload));
  const { rows } = await db.query<{ tenant_id: string; email: string; first_name: string; preferred_language: string | null }>(
    'select tenant_id, email, first_name, preferred_language from users where id = $1 and is_active',
    [userId],
  );
  const user = rows[0];
  if (!user) return null;
  const channel = await channelOf(db, userId, kind);
  const language = matchLanguage(user.preferred_language) ?? DEFAULT_MAIL_LANGUAGE;
  const params = payload.params ?? {};
  const link = payload.link ?? null;
  let notification: NotificationDto | null = null;
  if (wantsInApp(channel)) {
    notification = await insertNotification(db, { tenantId: user.tenant_id, userId, kind, titleKey: payload.titleKey ?? `kinds.${kind}`, params, link });
    await appendEvent(db, {
      tenantId: user.tenant_id,
      kind: 'notification.created',
      userId,
      payload: { notification, unreadCount: await unreadCount(db, userId) },
    });
  }
  const email = wantsEmail(channel);
  if (email && payload.mail !== false) {
    const mail: NotificationMailPayload = { kind, language, to: user.email, name: user.first_name, params, link };
    await enqueueJob(db, NOTIFICATION_MAIL_JOB, mail, { tenantId: user.tenant_id });
  }
  return { channel, notification, email, language };
}

/** Tells the user's open screens that their unread count changed (read, read all, archive, UNDO). */
export async function pushUnreadCount(tx: Queryable, tenantId: string, userId: string): Promise<number> {
  const count = await unreadCount(tx, userId);
  await appendEvent(tx, { tenantId, kind: 'notification.count', userId, payload: { unreadCount: count } });
  return count;
}

/** The handler of NOTIFICATION_MAIL_JOB: renders under PUBLIC_URL and hands the mail to the mailer. */
export function notificationMailHandler(deps: () => { mailer: Mailer; publicUrl: string }) {
  return async (job: Job<NotificationMailPayload>) => {
    const { mailer, publicUrl } = deps();
    const p = job.payload;
    await mailer.send(notificationMail(p.kind, p.language, { email: p.to, name: p.name }, p.params, p.link, publicUrl));
  };
}
