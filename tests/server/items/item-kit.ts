import type { FastifyInstance } from 'fastify';
import type { ItemContent } from '#machines/items/item-schema.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import { call, createProject, grant, managerUser, staffUser } from '../exams/workspace-kit.ts';

export type Json = Record<string, any>;

/** The item flow most tests use: peer review by ItemReviewer, approval by ProjectAdmin. */
export const itemFlowDefinition = {
  stages: [
    { id: 'review', name: 'Peer review', permission: 'ItemReviewer' },
    { id: 'approval', name: 'Approval', permission: 'ProjectAdmin' },
  ],
  submitPermission: 'ItemAuthor',
  retirePermission: 'ProjectAdmin',
};

export interface ItemBench {
  projectId: number;
  categoryId: number;
  subCategoryId: number;
  otherCategoryId: number;
  manager: TestUser;
  admin: TestUser;
  author: TestUser;
  reviewer: TestUser;
  outsider: TestUser;
  flowId: number;
}

/** A project in en, hi, gu with a category tree, the item flow and a team: admin, author, reviewer. */
export async function itemBench(app: FastifyInstance, options: { flow?: boolean } = {}): Promise<ItemBench> {
  const manager = await managerUser(app);
  const admin = await staffUser(app, { firstName: 'Anita', lastName: 'Admin' });
  const author = await staffUser(app, { firstName: 'Priya', lastName: 'Nair' });
  const reviewer = await staffUser(app, { firstName: 'Ravi', lastName: 'Kumar' });
  const outsider = await staffUser(app);
  const projectId = await createProject(app, manager, { languages: ['en', 'hi', 'gu'] });
  await grant(app, manager, projectId, admin, 'ProjectAdmin');
  await grant(app, manager, projectId, author, 'ItemAuthor');
  await grant(app, manager, projectId, reviewer, 'ItemReviewer');
  const category = (await call(app, manager, 'POST', '/api/v1/category', { project: projectId, body: { name: 'Science' } })).json() as Json;
  const sub = (
    await call(app, manager, 'POST', '/api/v1/category', { project: projectId, body: { name: 'Physics', parentId: category.categoryId } })
  ).json() as Json;
  const other = (await call(app, manager, 'POST', '/api/v1/category', { project: projectId, body: { name: 'Mathematics' } })).json() as Json;
  let flowId = 0;
  if (options.flow !== false) {
    const flow = await call(app, manager, 'POST', '/api/v1/flow', {
      project: projectId,
      body: { name: 'Item review', recordKind: 'item', definition: itemFlowDefinition },
    });
    if (flow.statusCode !== 201) throw new Error(`flow ${flow.statusCode}: ${flow.body}`);
    flowId = (flow.json() as Json).flowId;
  }
  return {
    projectId,
    categoryId: category.categoryId,
    subCategoryId: sub.categoryId,
    otherCategoryId: other.categoryId,
    manager,
    admin,
    author,
    reviewer,
    outsider,
    flowId,
  };
}

export async function createItem(app: FastifyInstance, bench: ItemBench, content: ItemContent, extra: Json = {}, user = bench.author): Promise<Json> {
  const res = await call(app, user, 'POST', '/api/v1/item', {
    project: bench.projectId,
    body: { categoryId: bench.categoryId, difficulty: 'medium', content, ...extra },
  });
  if (res.statusCode !== 201) throw new Error(`create item ${res.statusCode}: ${res.body}`);
  return res.json() as Json;
}

export function review(app: FastifyInstance, bench: ItemBench, user: TestUser, itemId: number, action: string, comment?: string) {
  return call(app, user, 'POST', `/api/v1/item/${itemId}/review`, {
    project: bench.projectId,
    body: { action, ...(comment !== undefined ? { comment } : {}) },
  });
}
