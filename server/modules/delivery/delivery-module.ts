import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import type { PeriodicTask } from '#server/lib/scheduler.ts';
import { deliveryRoutes } from './delivery-routes.ts';
import { paperRoutes } from './paper-routes.ts';
import { expireDeliveries } from './delivery-service.ts';
import { roomOf, roomPushFor } from './room-push.ts';

export { expireDeliveries };

/** Issue 19: candidates sit their papers in the browser; invigilators run the room (under /api). */
export async function deliveryModule(api: FastifyInstance, deps: { db: Db; clock: Clock }) {
  await api.register(deliveryRoutes, deps);
  await api.register(paperRoutes, deps);
}

/**
 * The expiry job: every Active delivery past its deadline is auto-submitted (TimeUp), with no
 * browser open. Requests about a delivery settle it the same way, so the job's interval only
 * bounds how late an abandoned delivery shows as ended.
 */
export function deliveryTasks(db: Db, clock: Clock): PeriodicTask[] {
  const push = roomPushFor(db);
  return [{ name: 'delivery.expire', intervalMs: 10_000, run: () => expireDeliveries(db, clock, 500, (row) => push.changed(roomOf(row), 'delivery.timeUp')) }];
}
