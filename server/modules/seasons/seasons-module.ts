import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { centerRoutes } from './centers-routes.ts';
import { registrationRoutes } from './registrations-routes.ts';
import { seasonRoutes } from './seasons-routes.ts';

/** Issue 18: exam centers (tenant-wide), the seasons of a project and their registrations (under /api). */
export async function seasonsModule(api: FastifyInstance, deps: { db: Db }) {
  await api.register(centerRoutes, deps);
  await api.register(seasonRoutes, deps);
  await api.register(registrationRoutes, deps);
}
