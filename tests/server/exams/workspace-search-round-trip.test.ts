import { expect, it } from 'vitest';
import { P } from '#machines/permissions.ts';
import type { Queryable } from '#server/db/client.ts';
import { searchExams, searchProjects } from '#server/modules/exams/projects-repository.ts';
import type { Principal } from '#server/plugins/access.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { call, createExam, createProject, grant, managerUser, staffUser } from './workspace-kit.ts';

type Json = Record<string, any>;

/** A Queryable that counts the statements sent to the database (docs/decisions/0202). */
function counting(db: Queryable) {
  const seen: string[] = [];
  const wrapped = {
    query: (text: string, params?: unknown[]) => {
      seen.push(text);
      return db.query(text, params as never);
    },
  } as unknown as Queryable;
  return { wrapped, seen };
}

describeEachDatabase('exam workspace: project and exam search in one round trip', (get) => {
  it('should answer a page and its exact total with one statement, also past the last page', async () => {
    const { app, db } = get();
    const manager = await managerUser(app);
    const staff = await staffUser(app);
    const tag = `RT${Date.now() % 100000}`;
    const ids: number[] = [];
    for (let n = 0; n < 5; n += 1) ids.push(await createProject(app, manager, { name: `${tag} board ${n}` }));
    await grant(app, manager, ids[1], staff, 'ItemAuthor');
    await grant(app, manager, ids[3], staff, 'Evaluator', await createExam(app, manager, ids[3]));
    for (let n = 0; n < 3; n += 1) await createExam(app, manager, ids[0], { name: `${tag} paper ${n}` });

    // Over HTTP: the paging fields agree with the rows.
    const second = (await call(app, manager, 'POST', '/api/v1/project/search', { body: { keyword: tag, pageNumber: 2, pageSize: 2 } })).json() as Json;
    expect(second).toMatchObject({ totalCount: 5, totalPages: 3, currentPage: 2, hasPreviousPage: true, hasNextPage: true });
    expect(second.data).toHaveLength(2);
    const all = (await call(app, manager, 'POST', '/api/v1/project/search', { body: { keyword: tag, pageSize: 10, orderBy: ['name asc'] } })).json() as Json;
    expect(all.data.map((p: Json) => p.name)).toEqual([0, 1, 2, 3, 4].map((n) => `${tag} board ${n}`));
    const past = (await call(app, manager, 'POST', '/api/v1/project/search', { body: { keyword: tag, pageNumber: 9, pageSize: 2 } })).json() as Json;
    expect(past).toMatchObject({ data: [], totalCount: 5, totalPages: 3, hasNextPage: false });
    const none = (await call(app, manager, 'POST', '/api/v1/project/search', { body: { keyword: `${tag}-nothing` } })).json() as Json;
    expect(none).toMatchObject({ data: [], totalCount: 0, totalPages: 0 });
    const staffs = (await call(app, staff, 'POST', '/api/v1/project/search', { body: { keyword: tag } })).json() as Json;
    expect(staffs.totalCount).toBe(2);
    expect(staffs.data.map((p: Json) => p.projectId).sort()).toEqual([ids[1], ids[3]].sort());
    const exams = (await call(app, manager, 'POST', '/api/v1/exam/search', { project: ids[0], body: { pageSize: 2, orderBy: ['name asc'] } })).json() as Json;
    expect(exams).toMatchObject({ totalCount: 3, totalPages: 2 });
    expect(exams.data.map((e: Json) => e.name)).toEqual([`${tag} paper 0`, `${tag} paper 1`]);

    // Directly: one statement per search, page or no page.
    const principal = {
      tenantId: 'root',
      instituteId: null,
      resellerId: null,
      userId: manager.id,
      permissions: new Set([P.Projects.Manage]),
    } as unknown as Principal;
    for (const [request, rows] of [
      [{ keyword: tag, pageSize: 2 }, 2],
      [{ keyword: tag, pageNumber: 9, pageSize: 2 }, 0],
    ] as const) {
      const { wrapped, seen } = counting(db);
      const page = await searchProjects(wrapped, principal, request);
      expect(seen).toHaveLength(1);
      expect(page.totalCount).toBe(5);
      expect(page.data).toHaveLength(rows);
    }
    const { wrapped, seen } = counting(db);
    const examPage = await searchExams(wrapped, ids[0], null, { pageSize: 2 });
    expect(seen).toHaveLength(1);
    expect(examPage).toMatchObject({ totalCount: 3, totalPages: 2 });
    expect(examPage.data).toHaveLength(2);
  });
});
