import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe } from 'vitest';
import { buildApp } from '#server/app.ts';
import { loadConfig, type ServerConfig } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { createTestDatabase, testDatabaseKinds, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type DbKind } from './test-database.ts';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  config: ServerConfig;
  kind: DbKind;
  /** Set on PostgreSQL: a second server process can share the database. */
  databaseUrl?: string;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** The clock deliveries run on (issue 19): moved by a test without expiring its sign-ins. */
  deliveryClock?: Clock;
  runJobs?: boolean;
  schedulerPollMs?: number;
}

/** The configuration a test server gets: quiet logs, a temporary data dir, the test admin. */
export function testConfig(dataDir: string, env: Record<string, string> = {}): ServerConfig {
  return loadConfig({
    DATA_DIR: dataDir,
    ADMIN_EMAIL: TEST_ADMIN_EMAIL,
    ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://exam-portal.test',
    ...env,
  });
}

export async function createTestApp(kind: DbKind, options: TestAppOptions = {}) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'exam-portal-test-'));
  const database = await createTestDatabase(kind);
  const config = testConfig(dataDir, options.env);
  const app = await buildApp({
    config,
    db: database.db,
    logger: { level: config.logLevel },
    clock: options.clock,
    deliveryClock: options.deliveryClock,
    runJobs: options.runJobs ?? false,
    schedulerPollMs: options.schedulerPollMs,
  });
  await app.ready();
  return {
    app,
    db: database.db,
    config,
    kind,
    databaseUrl: database.url,
    async close() {
      await app.close();
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a suite once per database kind (PGlite, and PostgreSQL when TEST_DATABASE_URL is
 * set), each on its own fresh database. `get()` returns the running app inside tests.
 */
export function describeEachDatabase(name: string, body: (get: () => TestApp) => void, options: TestAppOptions = {}) {
  for (const kind of testDatabaseKinds) {
    describe(`${name} [${kind}]`, () => {
      let current: Awaited<ReturnType<typeof createTestApp>> | undefined;
      beforeAll(async () => {
        current = await createTestApp(kind, options);
      });
      afterAll(async () => {
        await current?.close();
      });
      body(() => {
        if (!current) throw new Error('test app not started');
        return current;
      });
    });
  }
}
