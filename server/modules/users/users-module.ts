import type { FastifyInstance } from 'fastify';
import { userActivityRoutes } from './user-activity-routes.ts';
import { usersRoutes } from './users-routes.ts';
import type { UsersDeps } from './users-service.ts';

/** Issue 6: users and roles, directory users, login history and user languages, bulk upload and export (under /api). */
export async function usersModule(api: FastifyInstance, deps: UsersDeps) {
  await api.register(usersRoutes, deps);
  await api.register(userActivityRoutes, deps);
}
