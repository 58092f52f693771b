import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Db } from './client.ts';

const migrationsDir = path.join(import.meta.dirname, 'migrations');
// Any constant works; it only has to be the same in every instance of this product.
const MIGRATION_LOCK_KEY = 72_531_253;

export interface MigrationFile {
  name: string;
  sql: string;
}

export function readMigrations(dir = migrationsDir): MigrationFile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((name) => ({ name, sql: readFileSync(path.join(dir, name), 'utf8') }));
}

/**
 * Applies every migration not yet recorded in `schema_migrations`, all in one transaction
 * (a failed start-up leaves the schema as it was). Instances starting together on one
 * PostgreSQL serialise on an advisory lock, so each migration runs once. Returns the names
 * applied by this call: empty on every start after the first.
 */
export async function migrate(db: Db, migrations = readMigrations()): Promise<string[]> {
  await db.exec(`create table if not exists schema_migrations (
    name text primary key,
    applied_at timestamptz not null default now()
  )`);
  return db.transaction(async (tx) => {
    if (db.kind === 'postgres') await tx.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    const done = new Set((await tx.query<{ name: string }>('select name from schema_migrations')).rows.map((r) => r.name));
    const applied: string[] = [];
    for (const migration of migrations) {
      if (done.has(migration.name)) continue;
      await tx.exec(migration.sql);
      await tx.query('insert into schema_migrations (name) values ($1)', [migration.name]);
      applied.push(migration.name);
    }
    return applied;
  });
}
