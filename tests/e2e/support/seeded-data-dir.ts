import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openDb, type Db } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed } from '#server/db/seed.ts';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';

/**
 * An embedded data directory prepared before the server starts: migrated and seeded exactly
 * as the server's first start does, then given whatever the test needs (users in support
 * groups, say) straight in the database, or through the API of an app built in-process on it
 * (`dataDir` is the directory's path). The server then opens it as its own.
 */
export async function seededDataDir<T>(build: (db: Db, dataDir: string) => Promise<T>): Promise<{ dataDir: string; value: T }> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'exam-portal-e2e-'));
  const db = await openDb({ dataDir });
  try {
    await migrate(db);
    await seed(db, { adminEmail: TEST_ADMIN_EMAIL, adminPassword: TEST_ADMIN_PASSWORD });
    return { dataDir, value: await build(db, dataDir) };
  } finally {
    await db.close();
  }
}
