import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { configRoutes } from './config-routes.ts';
import { examRoutes } from './exams-routes.ts';
import { projectRoutes } from './projects-routes.ts';
import { teamRoutes } from './team-routes.ts';

/** Issue 15: projects and templates, exams, the team (exam permissions), item types, categories and flows (under /api). */
export async function examWorkspaceModule(api: FastifyInstance, deps: { db: Db }) {
  await api.register(projectRoutes, deps);
  await api.register(examRoutes, deps);
  await api.register(teamRoutes, deps);
  await api.register(configRoutes, deps);
}
