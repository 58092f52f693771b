import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { JobHandler } from '#server/lib/jobs.ts';
import { rolesRoutes } from './roles-routes.ts';
import { userActivityRoutes } from './user-activity-routes.ts';
import { runBulkUpload, type BulkDeps } from './users-bulk.ts';
import { usersBulkRoutes } from './users-bulk-routes.ts';
import { usersRoutes } from './users-routes.ts';
import type { UsersDeps } from './users-service.ts';

export { BULK_UPLOAD_JOB } from './users-bulk.ts';

/** Issue 6: users and roles, directory users, login history and user languages, bulk upload and export (under /api). */
export async function usersModule(api: FastifyInstance, deps: UsersDeps & BulkDeps) {
  await api.register(usersRoutes, deps);
  await api.register(rolesRoutes, deps);
  await api.register(userActivityRoutes, deps);
  await api.register(usersBulkRoutes, deps);
}

/**
 * The bulk-upload job handler of an app being built. The worker starts before the modules are
 * registered (and a job queued before a restart may be claimed at once), so the handler waits
 * for the app's onReady before it reaches the identity services.
 */
export function bulkUploadJobHandler(app: FastifyInstance, log: FastifyBaseLogger): JobHandler {
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  app.addHook('onReady', async () => markReady());
  const run =
    (deps: BulkDeps): JobHandler =>
    (job) =>
      runBulkUpload(deps, job, log);
  return async (job, db) => {
    await ready;
    await run({ identity: app.identity, pokeJobs: () => app.jobs.poke() })(job, db);
  };
}

/** The handler for an app that is already ready (tests drive the worker themselves). */
export function readyBulkUploadJobHandler(deps: BulkDeps, log: FastifyBaseLogger): JobHandler {
  return (job) => runBulkUpload(deps, job, log);
}
