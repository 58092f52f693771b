import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { centerRoutes } from './centers-routes.ts';
import { seasonRoutes } from './seasons-routes.ts';

/** Issue 18: exam centers (tenant-wide) and the seasons of a project (under /api). */
export async function seasonsModule(api: FastifyInstance, deps: { db: Db }) {
  await api.register(centerRoutes, deps);
  await api.register(seasonRoutes, deps);
}
