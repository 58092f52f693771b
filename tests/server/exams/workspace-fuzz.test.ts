import fc from 'fast-check';
import { expect, it } from 'vitest';
import { routeMatrix } from '#tests/server/users/route-matrix.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser } from '#tests/setup/test-users.ts';
import { call, createExam, createProject } from './workspace-kit.ts';

const workspaceRoutes = routeMatrix.filter(([, url]) =>
  /^\/api\/v1\/(project|projecttemplate|exam|examgrant|itemtype|category|categoryfile|flow)(\/|$)/.test(url),
);

describeEachDatabase('exam workspace routes under generated input', (get) => {
  it('should never answer 5xx to any body, path id or context header a manager sends', async () => {
    const { app } = get();
    const admin = await createSignedInUser(app, { roles: ['Admin'] });
    const project = await createProject(app, admin);
    const exam = await createExam(app, admin, project);
    const category = (await call(app, admin, 'POST', '/api/v1/category', { project, body: { name: 'Physics' } })).json() as { categoryId: number };
    expect(workspaceRoutes).toHaveLength(39);
    const value = fc.oneof(
      fc.string({ maxLength: 30 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constant(project),
      fc.constant(exam),
      fc.constant(category.categoryId),
      fc.constant('__proto__'),
      fc.constantFrom(
        'project.startSetup',
        'project.activate',
        'project.archive',
        'exam.schedule',
        'exam.withdrawResults',
        'singleChoice',
        'essay',
        'ProjectAdmin',
        'en',
        'hi',
      ),
      fc.array(fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { maxLength: 3 }),
      fc.record({ correct: fc.double(), wrong: fc.double(), unanswered: fc.double() }),
      fc.record({
        stages: fc.array(fc.record({ id: fc.string({ maxLength: 6 }), name: fc.string({ maxLength: 6 }), permission: fc.string({ maxLength: 12 }) }), {
          maxLength: 3,
        }),
      }),
    );
    const fields = [
      'code',
      'name',
      'description',
      'languages',
      'instituteId',
      'templateId',
      'version',
      'event',
      'reason',
      'passRules',
      'gradeBands',
      'userId',
      'examId',
      'permission',
      'kind',
      'settings',
      'marking',
      'isActive',
      'sortOrder',
      'parentId',
      'isRetired',
      'recordKind',
      'definition',
      'keyword',
      'advancedSearch',
      'pageNumber',
      'pageSize',
      'orderBy',
      'status',
      'includeArchived',
      '__proto__',
      'constructor',
    ];
    const record = fc.dictionary(fc.constantFrom(...fields), value, { maxKeys: 8 });
    const pathId = fc.oneof(
      fc.constant(String(project)),
      fc.constant(String(exam)),
      fc.constant(String(category.categoryId)),
      fc.uuid(),
      fc.integer().map(String),
      fc.string({ maxLength: 12 }).map(encodeURIComponent),
    );
    const header = fc.oneof(
      fc.constant(String(project)),
      fc.constant(`${exam}&3`),
      fc.constant(String(exam)),
      fc.string({ maxLength: 12 }),
      fc.constant(undefined),
    );
    const ifMatch = fc.oneof(fc.constant(undefined), fc.constant('"1"'), fc.string({ maxLength: 8 }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...workspaceRoutes),
        fc.oneof(record, fc.anything()),
        pathId,
        header,
        header,
        ifMatch,
        async ([method, url], body, id, projectHeader, examHeader, match) => {
          const path = url.replace(':id', id || 'x');
          const headers: Record<string, string> = { ...as(admin), 'content-type': 'application/json' };
          if (projectHeader !== undefined) headers.ProjectId = projectHeader;
          if (examHeader !== undefined) headers.ExamId = examHeader;
          if (match !== undefined) headers['if-match'] = match;
          const res = await app.inject({
            method: method as 'GET',
            url: path,
            headers,
            ...(method === 'GET' || method === 'DELETE' ? {} : { payload: JSON.stringify(body) ?? 'null' }),
          });
          expect(res.statusCode, `${method} ${path} answered ${res.statusCode}: ${res.body}`).toBeLessThan(500);
        },
      ),
      { numRuns: 400 },
    );
  }, 180_000);
});
