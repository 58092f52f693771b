import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import type { JobHandler } from '#server/lib/jobs.ts';
import type { PdfPrinter } from '#server/modules/papers/paper-print.ts';
import { admitCardRoutes } from './admit-card-routes.ts';
import { ADMIT_CARD_BATCH_JOB, runAdmitCardBatch, type AdmitCardDeps } from './admit-cards.ts';
import { centerRoutes } from './centers-routes.ts';
import { registrationRoutes } from './registrations-routes.ts';
import { REGISTRATION_UPLOAD_JOB, runRegistrationUpload } from './registrations-bulk.ts';
import { seasonRoutes } from './seasons-routes.ts';

export { ADMIT_CARD_BATCH_JOB, REGISTRATION_UPLOAD_JOB };

/** Issue 18: exam centers (tenant-wide), the seasons of a project and their registrations, admit cards (under /api). */
export async function seasonsModule(api: FastifyInstance, deps: AdmitCardDeps) {
  await api.register(centerRoutes, { db: deps.db });
  await api.register(seasonRoutes, { db: deps.db });
  await api.register(registrationRoutes, deps);
  await api.register(admitCardRoutes, deps);
}

/**
 * The job handlers of issue 18 (bulk registration, admit-card batches) for an app being built:
 * like the users' bulk upload, they wait for the app's onReady before reaching the mailer.
 */
export function seasonJobHandlers(app: FastifyInstance, db: Db, printer: PdfPrinter, log: FastifyBaseLogger): Record<string, JobHandler> {
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  app.addHook('onReady', async () => markReady());
  const deps = (): AdmitCardDeps => ({ db, printer, mail: app.identity.mail, publicUrl: app.config.publicUrl, pokeJobs: () => app.jobs.poke() });
  return {
    [REGISTRATION_UPLOAD_JOB]: async (job) => {
      await ready;
      await runRegistrationUpload(deps(), job, log);
    },
    [ADMIT_CARD_BATCH_JOB]: async (job) => {
      await ready;
      await runAdmitCardBatch(deps(), job, log);
    },
  };
}
