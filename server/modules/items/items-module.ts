import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { itemImportRoutes } from './items-import-routes.ts';
import { itemRoutes } from './items-routes.ts';

export { ITEM_IMPORT_JOB, itemImportJobHandler } from './items-import.ts';

/** Issue 16: the item bank (under /api), docs/decisions/0123–0125. */
export async function itemsModule(api: FastifyInstance, deps: { db: Db; pokeJobs(): void }) {
  await api.register(itemRoutes, deps);
  await api.register(itemImportRoutes, deps);
}
