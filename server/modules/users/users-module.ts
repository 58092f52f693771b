import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { JobHandler } from '#server/lib/jobs.ts';
import { userActivityRoutes } from './user-activity-routes.ts';
import { runBulkUpload, type BulkDeps } from './users-bulk.ts';
import { usersBulkRoutes } from './users-bulk-routes.ts';
import { usersRoutes } from './users-routes.ts';
import type { UsersDeps } from './users-service.ts';

export { BULK_UPLOAD_JOB } from './users-bulk.ts';

/** Issue 6: users and roles, directory users, login history and user languages, bulk upload and export (under /api). */
export async function usersModule(api: FastifyInstance, deps: UsersDeps & BulkDeps) {
  await api.register(usersRoutes, deps);
  await api.register(userActivityRoutes, deps);
  await api.register(usersBulkRoutes, deps);
}

/**
 * The bulk-upload job handler. The worker starts before the modules are registered, so the
 * handler waits for the app to be ready before it reaches the identity services.
 */
export function bulkUploadJobHandler(app: FastifyInstance, log: FastifyBaseLogger): JobHandler {
  return async (job) => {
    await app.ready();
    await runBulkUpload({ identity: app.identity, pokeJobs: () => app.jobs.poke() }, job, log);
  };
}
