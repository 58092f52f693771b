import type { FastifyInstance } from 'fastify';
import type { JobHandler } from '#server/lib/jobs.ts';
import { EXPORT_RUN_JOB, runExport } from './exports.ts';
import { statisticsRoutes, type StatisticsDeps } from './statistics-routes.ts';

export { EXPORT_RUN_JOB };

/** Issue 20: item statistics of a paper and the project's export templates with their runs (under /api). */
export async function statisticsModule(api: FastifyInstance, deps: StatisticsDeps) {
  await api.register(statisticsRoutes, deps);
}

/** The export job (docs/decisions/0257). */
export const exportRunJobHandler: JobHandler = (job, db) => runExport(db, job);
