import { buildApp } from './app.ts';
import { prepareDatabase } from './bootstrap.ts';
import { loadConfig } from './config.ts';
import { demoDataSummary, seedDemoData } from './db/demo-data.ts';

/** The only file that listens. Reads the environment, prepares the database, serves. */
async function main() {
  const startedAt = performance.now();
  const config = loadConfig();
  const { db, seeded } = await prepareDatabase(config);
  // DEMO_DATA=1: add the demo projects on start (idempotent; `npm run seed:demo` does the same).
  if (process.env.DEMO_DATA === '1') process.stdout.write(demoDataSummary(await seedDemoData(db, { password: process.env.DEMO_PASSWORD || undefined })));
  // MACHINE_COVERAGE_DIR: where /machines reads the test run's coverage (default coverage/machines).
  const app = await buildApp({ config, db, machineCoverageDir: process.env.MACHINE_COVERAGE_DIR || undefined });
  app.addHook('onClose', async () => {
    await db.close();
  });

  if (seeded.generatedAdminPassword) {
    // Printed once, on the start that created the admin; never stored in clear anywhere.
    process.stdout.write(
      `\n  First start: administrator ${config.adminEmail} created with password ${seeded.generatedAdminPassword}\n` +
        `  (set ADMIN_EMAIL / ADMIN_PASSWORD to choose them). This is the only time it is shown.\n\n`,
    );
  }

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    const force = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // Test harnesses keep stdin open; when the parent goes away, so does this server.
  if (process.env.EXIT_ON_STDIN_CLOSE === '1') {
    process.stdin.on('end', () => void shutdown('stdin closed'));
    process.stdin.on('error', () => void shutdown('stdin error'));
    process.stdin.resume();
  }

  const address = await app.listen({ port: config.port, host: config.host });
  app.log.info({ address, database: db.kind, startupMs: Math.round(performance.now() - startedAt), publicUrl: config.publicUrl }, 'listening');
}

main().catch((error) => {
  console.error('Start-up failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
