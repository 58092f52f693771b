import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDb } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed } from '#server/db/seed.ts';
import { databaseUrl, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from './test-database.ts';

/** Where the default run looks for PostgreSQL when TEST_DATABASE_URL is not set. */
export const LOCAL_POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The PostgreSQL server the server suites run against a second time: TEST_DATABASE_URL when
 * set (`off` turns the PostgreSQL half off), else the local server when it answers within 2 s.
 */
async function findPostgres(): Promise<{ url: string; why: string }> {
  const configured = process.env.TEST_DATABASE_URL;
  if (configured === 'off') return { url: '', why: 'TEST_DATABASE_URL=off' };
  const url = configured || LOCAL_POSTGRES_URL;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return { url, why: '' };
  } catch (error) {
    // A configured server that does not answer is an error of the run, not a reason to skip.
    if (configured) throw new Error(`TEST_DATABASE_URL does not answer: ${(error as Error).message}`);
    return { url: '', why: `no PostgreSQL answered at 127.0.0.1:5432 (${(error as Error).message})` };
  } finally {
    await client.end().catch(() => {});
  }
}

function warnSkipped(why: string) {
  const line = '!'.repeat(78);
  console.warn(
    `\n${line}\n!!  THE POSTGRESQL HALF OF THE SERVER SUITES WAS SKIPPED: ${why}\n` +
      `!!  Only PGlite ran. Start PostgreSQL on 127.0.0.1:5432 (user postgres, trust) or set\n` +
      `!!  TEST_DATABASE_URL to run every server suite on PostgreSQL too.\n${line}\n`,
  );
}

/** Migrates and seeds one template per run; every test file starts from a copy of it. */
export default async function setup(project: TestProject) {
  const postgres = await findPostgres();
  if (!postgres.url) warnSkipped(postgres.why);
  project.provide('postgresUrl', postgres.url);

  const dir = await mkdtemp(path.join(tmpdir(), 'exam-portal-template-'));
  const lite = await openDb({});
  await migrate(lite);
  await seed(lite, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
  const templatePath = path.join(dir, 'pglite-template.tar');
  const dump = await lite.dumpDataDir!();
  await writeFile(templatePath, Buffer.from(await dump.arrayBuffer()));
  await lite.close();
  project.provide('pgliteTemplatePath', templatePath);

  let templateName = '';
  if (postgres.url) {
    templateName = `test_template_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgres.url });
    await admin.connect();
    await admin.query(`create database ${templateName}`);
    const db = await openDb({ databaseUrl: databaseUrl(postgres.url, templateName) });
    await migrate(db);
    await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
    await db.close();
    await admin.end();
  }
  project.provide('postgresTemplateName', templateName);

  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (!postgres.url) warnSkipped(postgres.why);
    if (templateName) {
      const admin = new pg.Client({ connectionString: postgres.url });
      await admin.connect();
      await admin.query(`drop database if exists ${templateName} with (force)`);
      await admin.end();
    }
  };
}
