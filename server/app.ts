import { randomUUID } from 'node:crypto';
import multipart from '@fastify/multipart';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServerConfig } from './config.ts';
import type { Db } from './db/client.ts';
import { getOrCreateSecret } from './db/seed.ts';
import { AUTO_CLOSE_AFTER_DAYS } from '#machines/ticket-lifecycle.machine.ts';
import { systemClock, type Clock } from './lib/clock.ts';
import { DomainEventBus } from './lib/domain-events.ts';
import { startJobWorker, type JobHandler } from './lib/jobs.ts';
import { startScheduler } from './lib/scheduler.ts';
import { chatRoutes } from './modules/chat/chat-routes.ts';
import { healthRoutes } from './modules/health/routes.ts';
import { identityPlugin, identityRoutes } from './modules/identity/identity-module.ts';
import type { PasswordVerifiers } from './modules/identity/password-verifiers.ts';
import { machinesRoutes } from './modules/machines/machines-routes.ts';
import { supportGroupRoutes } from './modules/support-groups/support-groups-routes.ts';
import { EVENT_RETENTION_DAYS, pruneEvents } from './modules/realtime/realtime-repository.ts';
import { realtimeRoutes } from './modules/realtime/realtime-routes.ts';
import { ticketRoutes } from './modules/tickets/tickets-routes.ts';
import { compactTicketCounts } from './modules/tickets/tickets-repository.ts';
import { directoryPasswordVerifier, ldapDirectory } from './modules/users/users-directory.ts';
import { BULK_UPLOAD_JOB, bulkUploadJobHandler, usersModule } from './modules/users/users-module.ts';
import { autoCloseResolved } from './modules/tickets/tickets-service.ts';
import { startUnstaffedGroupAlerts } from './modules/tickets/unstaffed-group-alerts.ts';
import { startTicketNotifications } from './modules/notifications/ticket-notifications.ts';
import { paperRoutes } from './modules/papers/papers-routes.ts';
import { accessPlugin } from './plugins/access.ts';
import { workspaceContextPlugin } from './plugins/workspace-context.ts';
import { examWorkspaceModule } from './modules/exams/exams-module.ts';
import { seasonJobHandlers, seasonsModule } from './modules/seasons/seasons-module.ts';
import { deliveryModule, deliveryTasks } from './modules/delivery/delivery-module.ts';
import { dashboardRoutes } from './modules/dashboard/dashboard-routes.ts';
import { resultsModule } from './modules/results/results-module.ts';
import { PdfPrinter } from './modules/papers/paper-print.ts';
import { ITEM_IMPORT_JOB, itemImportJobHandler, itemsModule } from './modules/items/items-module.ts';
import { profileRoutes } from './modules/profile/profile-routes.ts';
import { NOTIFICATION_MAIL_JOB, notificationMailHandler, notificationsModule } from './modules/notifications/notifications-module.ts';
import { EXPORT_RUN_JOB, exportRunJobHandler, statisticsModule } from './modules/statistics/statistics-module.ts';
import { authenticationPlugin } from './plugins/authentication.ts';
import { clientPlugin } from './plugins/client.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { inputGuardPlugin } from './plugins/input-guard.ts';
import { createMailer, devMailboxDecision, devMailboxPlugin } from './plugins/mail.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { rateLimitPlugin } from './plugins/rate-limit.ts';
import { responseSchemasPlugin } from './plugins/response-schemas.ts';
import { helmetOnce } from './plugins/security-headers.ts';
import { compressionPlugin } from './plugins/compression.ts';

export interface AppOptions {
  config: ServerConfig;
  db: Db;
  /** Pino options or an existing logger; tests pass `false` or a silent level. */
  logger?: FastifyServerOptions['logger'] | FastifyBaseLogger;
  clock?: Clock;
  /** The clock deliveries run on (default: `clock`); tests move it without expiring sign-ins. */
  deliveryClock?: Clock;
  /** Run the background job worker and scheduled tasks (off in most tests, which drive them directly). */
  runJobs?: boolean;
  /** How often the scheduler polls its periodic tasks (default 30 s; tests poll faster). */
  schedulerPollMs?: number;
  /** Password checks per login type; the LDAP bind of directory users plugs in here. */
  passwordVerifiers?: Partial<PasswordVerifiers>;
  /** The StrykerJS JSON report of machines/ (default: reports/mutation/machines/mutation.json). */
  machineMutationReport?: string;
  /** Where the model-based tests leave their coverage reports (default: coverage/machines). */
  machineCoverageDir?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: ServerConfig;
    db: Db;
    clock: Clock;
    secrets: { jwt: string; persist: string };
    jobs: { poke(): void };
    events: DomainEventBus;
  }
}

/** Fields never written to the log. */
const redact = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.newPassword',
  '*.confirmNewPassword',
  '*.confirmPassword',
  '*.enteredOTP',
  '*.refreshToken',
  '*.token',
];

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const loggerOption = options.logger === undefined ? { level: config.logLevel, redact } : options.logger;
  const isLoggerInstance = typeof loggerOption === 'object' && loggerOption !== null && 'child' in loggerOption;
  const app = Fastify({
    ...(isLoggerInstance ? { loggerInstance: loggerOption as FastifyBaseLogger } : { logger: loggerOption as FastifyServerOptions['logger'] }),
    genReqId: () => randomUUID(),
    requestIdHeader: 'x-request-id',
    // In-flight requests finish on close; idle keep-alive sockets are dropped so close never hangs.
    forceCloseConnections: 'idle',
    trustProxy: false,
    // strictNumbers: a query value "1e309" coerces to Infinity, which `type: integer` alone lets through.
    ajv: { customOptions: { allErrors: true, removeAdditional: true, coerceTypes: 'array', useDefaults: true, strictNumbers: true } },
  });

  const secrets = {
    jwt: config.jwtSecret ?? (await getOrCreateSecret(db, 'jwt_secret')),
    persist: config.persistSecret ?? (await getOrCreateSecret(db, 'persist_secret', 32)),
  };
  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('clock', options.clock ?? systemClock);
  app.decorate('secrets', secrets);
  const events = new DomainEventBus();
  app.decorate('events', events);

  const mailer = createMailer(db, { smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log });
  app.decorate('mailer', mailer);

  // One headless Chromium for the server's PDFs: printed paper sets and admit cards (docs/decisions/0141, 0232).
  const printer = new PdfPrinter();
  app.addHook('onClose', async () => printer.close());
  const jobHandlers: Record<string, JobHandler> = {
    ...seasonJobHandlers(app, db, printer, app.log),
    'mail.send': mailer.retryHandler,
    [BULK_UPLOAD_JOB]: bulkUploadJobHandler(app, app.log),
    [ITEM_IMPORT_JOB]: itemImportJobHandler,
    [NOTIFICATION_MAIL_JOB]: notificationMailHandler(() => ({ mailer, publicUrl: config.publicUrl })),
    [EXPORT_RUN_JOB]: exportRunJobHandler,
  };
  const worker = options.runJobs === false ? undefined : startJobWorker(db, jobHandlers, { log: app.log });
  app.decorate('jobs', { poke: () => worker?.poke() });
  const ticketDeps = { db, clock: app.clock, events };
  const deliveryClock = options.deliveryClock ?? app.clock;
  const scheduler =
    options.runJobs === false
      ? undefined
      : startScheduler(
          db,
          app.clock,
          [
            { name: 'tickets.autoClose', intervalMs: 10 * 60_000, run: () => autoCloseResolved(ticketDeps, AUTO_CLOSE_AFTER_DAYS) },
            { name: 'tickets.compactCounts', intervalMs: 60_000, run: () => compactTicketCounts(db) },
            {
              name: 'realtime.prune',
              intervalMs: 60 * 60_000,
              run: () => pruneEvents(db, new Date(app.clock.now().getTime() - EVENT_RETENTION_DAYS * 86_400_000)),
            },
            ...deliveryTasks(db, deliveryClock),
          ],
          app.log,
          options.schedulerPollMs,
        );
  app.addHook('onClose', async () => {
    await scheduler?.stop();
    await worker?.stop();
  });

  await app.register(errorsPlugin);
  await app.register(inputGuardPlugin);
  await app.register(responseSchemasPlugin);
  // The socket's own origin, for browsers whose 'self' does not cover ws:/wss: (CSP Level 2).
  const socketOrigin = config.publicUrl.replace(/^http/, 'ws');
  // helmet's headers, computed once at start-up instead of on every request (issue 22).
  await app.register(helmetOnce, {
    // HSTS only where the site is served over HTTPS; over plain HTTP it is meaningless (issue 23).
    strictTransportSecurity: config.publicUrl.startsWith('https:') ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    // One framing policy: CSP frame-ancestors below; X-Frame-Options would only repeat or contradict it.
    xFrameOptions: false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", socketOrigin],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  await app.register(compressionPlugin);
  await app.register(openApiPlugin, { version: config.version });
  // Per-route limits are set where files are read; these are the outer bounds.
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024, files: 5, fields: 20, parts: 30 } });
  await app.register(websocket, {
    options: { maxPayload: 64 * 1024 },
    // Sockets learn it is a restart (1001: reconnect and resume), not a bare drop.
    preClose(done) {
      for (const client of this.websocketServer.clients) client.close(1001, 'server shutting down');
      this.websocketServer.close();
      done();
    },
  });
  await app.register(authenticationPlugin);
  await app.register(accessPlugin, { authenticator: app.authenticate });
  // After access: the ProjectId / ExamId headers are checked once the caller is known.
  await app.register(workspaceContextPlugin);
  await app.register(rateLimitPlugin, { db, clock: app.clock });
  const directory = config.ldap ? ldapDirectory(config.ldap) : undefined;
  await app.register(identityPlugin, {
    passwordVerifiers: { ...(directory ? { directory: directoryPasswordVerifier(directory) } : {}), ...options.passwordVerifiers },
  });

  await app.register(
    async (api) => {
      await api.register(healthRoutes, { db, version: config.version });
      await api.register(identityRoutes);
      await api.register(ticketRoutes, ticketDeps);
      await api.register(supportGroupRoutes, { db });
      await api.register(machinesRoutes, { coverageDir: options.machineCoverageDir, mutationReport: options.machineMutationReport });
      await api.register(chatRoutes, { db, clock: app.clock });
      await api.register(realtimeRoutes, { db, clock: app.clock, events });
      await api.register(examWorkspaceModule, { db });
      await api.register(itemsModule, { db, pokeJobs: () => app.jobs.poke() });
      await api.register(usersModule, { identity: app.identity, directory, pokeJobs: () => app.jobs.poke() });
      await api.register(paperRoutes, { db, printer });
      await api.register(seasonsModule, { db, printer, mail: app.identity.mail, publicUrl: config.publicUrl, pokeJobs: () => app.jobs.poke() });
      await api.register(deliveryModule, { db, clock: deliveryClock });
      await api.register(dashboardRoutes, { db, clock: app.clock, directoryConfigured: directory !== undefined });
      await api.register(resultsModule, { db, clock: deliveryClock, events, mail: app.identity.mail, publicUrl: config.publicUrl, log: app.log });
      await api.register(notificationsModule, { db });
      await api.register(profileRoutes, { db, clock: app.clock });
      await api.register(statisticsModule, { db, clock: app.clock, pokeJobs: () => app.jobs.poke() });
    },
    { prefix: '/api' },
  );
  // Tickets that land in a group with no agents are e-mailed to support admins (docs/decisions/0280).
  const stopUnstaffedAlerts = startUnstaffedGroupAlerts({ db, events, mail: app.identity.mail, publicUrl: config.publicUrl, log: app.log });
  app.addHook('onClose', async () => stopUnstaffedAlerts());
  // Assignment, status changes and resolutions reach the notification center (issue 21, docs/decisions/0260).
  const stopTicketNotifications = startTicketNotifications({ db, events, log: app.log });
  app.addHook('onClose', async () => stopTicketNotifications());

  const mailbox = devMailboxDecision(config, mailer.mode);
  if (mailbox.on) {
    await app.register(devMailboxPlugin, { db });
    app.log.warn(
      `dev mailbox on at /dev/mailbox (no SMTP_URL): it shows sign-in codes and reset links, so it answers loopback clients only. Set SMTP_URL for real use.`,
    );
  } else if (mailbox.reason) app.log.warn(`dev mailbox off: ${mailbox.reason}`);
  await app.register(clientPlugin, { config, persistSecret: secrets.persist });
  return app;
}
