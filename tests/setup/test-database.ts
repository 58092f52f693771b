import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { openDb, type Db } from '#server/db/client.ts';

export type DbKind = 'pglite' | 'postgres';

/**
 * The PostgreSQL server the global setup found: TEST_DATABASE_URL, else the local server at
 * 127.0.0.1:5432 when it answers (see server-global-setup.ts); empty when there is none.
 */
function injectedPostgresUrl(): string {
  try {
    return inject('postgresUrl') ?? '';
  } catch {
    // Imported outside a server-project worker (global setup, e2e, benchmarks): no PostgreSQL half.
    return '';
  }
}
const postgresUrl = injectedPostgresUrl();

/** PGlite always; PostgreSQL too whenever a server answered in the global setup. */
export const testDatabaseKinds: DbKind[] = postgresUrl ? ['pglite', 'postgres'] : ['pglite'];

export const TEST_ADMIN_EMAIL = 'admin@exam-portal.test';
export const TEST_ADMIN_PASSWORD = 'correct horse battery staple 42';

export function databaseUrl(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

async function adminQuery(sql: string) {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export interface TestDatabase {
  db: Db;
  kind: DbKind;
  /** Set for PostgreSQL: other processes (a second server instance) can connect to it. */
  url?: string;
  drop(): Promise<void>;
}

/**
 * A fresh, migrated and seeded database for one test file: PGlite cloned from the template
 * dump made once per run (0.7 s instead of 4 s), or a PostgreSQL database created from the
 * migrated template database.
 */
export async function createTestDatabase(kind: DbKind): Promise<TestDatabase> {
  if (kind === 'pglite') {
    const dump = await readFile(inject('pgliteTemplatePath'));
    const db = await openDb({ loadDataDir: new Blob([dump]) });
    return { db, kind, drop: () => db.close() };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`create database ${name} template ${inject('postgresTemplateName')}`);
  const url = databaseUrl(postgresUrl, name);
  const db = await openDb({ databaseUrl: url, poolSize: 20 });
  return {
    db,
    kind,
    url,
    async drop() {
      await db.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplatePath: string;
    postgresTemplateName: string;
    postgresUrl: string;
  }
}
