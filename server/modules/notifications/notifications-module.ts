import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { notificationRoutes } from './notifications-routes.ts';

export { notify, NOTIFICATION_MAIL_JOB, notificationMailHandler } from './notify.ts';

/** Issue 21: the notification center and its preferences (under /api). */
export async function notificationsModule(api: FastifyInstance, deps: { db: Db }) {
  await api.register(notificationRoutes, deps);
}
