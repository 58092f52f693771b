// `npm run seed:demo`: migrates and seeds the configured database (DATA_DIR or DATABASE_URL,
// as `npm start` would), then adds the demo data of server/db/demo-data.ts. Run it before
// `npm start` with the embedded database (PGlite allows one process at a time), or start with
// DEMO_DATA=1 instead.
import { prepareDatabase } from '../server/bootstrap.ts';
import { loadConfig } from '../server/config.ts';
import { demoDataSummary, seedDemoData } from '../server/db/demo-data.ts';

const config = loadConfig();
const { db } = await prepareDatabase(config);
try {
  const result = await seedDemoData(db, { password: process.env.DEMO_PASSWORD || undefined });
  process.stdout.write(demoDataSummary(result));
} finally {
  await db.close();
}
