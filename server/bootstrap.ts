import type { FastifyBaseLogger } from 'fastify';
import type { ServerConfig } from './config.ts';
import { openDb, type Db } from './db/client.ts';
import { migrate } from './db/migrate.ts';
import { seed, type SeedResult } from './db/seed.ts';

export interface PreparedDatabase {
  db: Db;
  applied: string[];
  seeded: SeedResult;
}

/** Opens the configured database, applies pending migrations and the first-start seed. */
export async function prepareDatabase(config: ServerConfig, log?: FastifyBaseLogger): Promise<PreparedDatabase> {
  const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.databaseUrl ? undefined : config.dataDir });
  try {
    const applied = await migrate(db);
    if (applied.length) log?.info({ applied }, 'migrations applied');
    const seeded = await seed(db, { adminEmail: config.adminEmail, adminPassword: config.adminPassword });
    return { db, applied, seeded };
  } catch (error) {
    await db.close();
    throw error;
  }
}
