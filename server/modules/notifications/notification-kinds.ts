import { notificationKinds, type NotificationKind } from '#machines/realtime-protocol.ts';

export { notificationKinds, type NotificationKind };

/** How a user wants to hear of a kind (issue 21): in the app, by e-mail, both, or not at all. */
export const notificationChannels = ['inApp', 'email', 'both', 'none'] as const;
export type NotificationChannel = (typeof notificationChannels)[number];

/**
 * The channel a kind has until the user chooses (docs/decisions/0260): what used to be mailed
 * before the notification center (registration decisions, admit cards) stays mailed, and is
 * shown in the app as well; the rest is in the app only, so nobody gets new e-mail unasked.
 */
export const defaultChannel: Record<NotificationKind, NotificationChannel> = {
  'ticket.reply': 'inApp',
  'ticket.assigned': 'inApp',
  'ticket.status': 'inApp',
  'ticket.resolved': 'both',
  'registration.approved': 'both',
  'registration.rejected': 'both',
  'admitcard.issued': 'both',
  'results.published': 'both',
  'reevaluation.outcome': 'both',
  'bulkjob.finished': 'inApp',
};

export const isNotificationKind = (value: unknown): value is NotificationKind =>
  typeof value === 'string' && (notificationKinds as readonly string[]).includes(value);

export const wantsInApp = (channel: NotificationChannel) => channel === 'inApp' || channel === 'both';
export const wantsEmail = (channel: NotificationChannel) => channel === 'email' || channel === 'both';
