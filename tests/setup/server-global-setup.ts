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

/** Migrates and seeds one template per run; every test file starts from a copy of it. */
export default async function setup(project: TestProject) {
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
  if (process.env.TEST_DATABASE_URL) {
    templateName = `test_template_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${templateName}`);
    const db = await openDb({ databaseUrl: databaseUrl(process.env.TEST_DATABASE_URL, templateName) });
    await migrate(db);
    await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
    await db.close();
    await admin.end();
  }
  project.provide('postgresTemplateName', templateName);

  return async () => {
    await rm(dir, { recursive: true, force: true });
    if (templateName) {
      const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${templateName} with (force)`);
      await admin.end();
    }
  };
}
