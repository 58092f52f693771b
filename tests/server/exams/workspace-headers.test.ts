import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { routeMatrix } from '#tests/server/users/route-matrix.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createTenant } from '#tests/server/users/users-kit.ts';
import { as, createSignedInUser } from '#tests/setup/test-users.ts';
import { call, createExam, createProject, grant, managerUser, staffUser } from './workspace-kit.ts';

const PROJECT_ROUTES = routeMatrix.filter(([method, url]) =>
  [
    'GET /api/v1/project/:id',
    'PUT /api/v1/project/:id',
    'POST /api/v1/project/:id/status',
    'GET /api/v1/project/:id/history',
    'POST /api/v1/project/:id/savetemplate',
    'POST /api/v1/exam/search',
    'POST /api/v1/exam',
    'GET /api/v1/exam/:id',
    'PUT /api/v1/exam/:id',
    'POST /api/v1/exam/:id/status',
    'GET /api/v1/exam/:id/history',
    'POST /api/v1/examgrant/search',
    'POST /api/v1/examgrant',
    'DELETE /api/v1/examgrant/:id',
    'GET /api/v1/itemtype',
    'POST /api/v1/itemtype',
    'PUT /api/v1/itemtype/:id',
    'GET /api/v1/category',
    'POST /api/v1/category',
    'PUT /api/v1/category/:id',
    'POST /api/v1/category/:id/move',
    'DELETE /api/v1/category/:id',
    'POST /api/v1/categoryfile',
    'GET /api/v1/categoryfile',
    'GET /api/v1/categoryfile/:id',
    'DELETE /api/v1/categoryfile/:id',
    'GET /api/v1/flow',
    'POST /api/v1/flow',
    'PUT /api/v1/flow/:id',
    'POST /api/v1/flow/:id/preview',
  ].includes(`${method} ${url}`),
);

describeEachDatabase('workspace context headers', (get) => {
  it('should list 30 project routes (the rest are global or the one paper route)', () => {
    expect(PROJECT_ROUTES).toHaveLength(30);
  });

  it('should answer 400 naming ProjectId on every project route called without it, and when it is not an id', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const wrong: string[] = [];
    for (const [method, url] of PROJECT_ROUTES) {
      const concrete = url.replace(':id', url.includes('categoryfile') ? '00000000-0000-4000-8000-000000000001' : '1');
      for (const [value, message] of [
        [undefined, 'The ProjectId header is required.'],
        ['   ', 'The ProjectId header is required.'],
        ['abc', 'The ProjectId header must be a project id (a positive whole number).'],
        ['0', 'The ProjectId header must be a project id (a positive whole number).'],
        ['42&7', 'The ProjectId header must be a project id (a positive whole number).'],
        ['99999999999999999999', 'The ProjectId header must be a project id (a positive whole number).'],
      ] as const) {
        const res = await app.inject({
          method: method as 'GET',
          url: concrete,
          headers: { ...as(manager), ...(value === undefined ? {} : { ProjectId: value }) },
          payload: method === 'GET' || method === 'DELETE' ? undefined : {},
        });
        const errors = res.statusCode === 400 ? (res.json() as { errors?: Record<string, string[]> }).errors : undefined;
        if (res.statusCode !== 400 || errors?.ProjectId?.[0] !== message)
          wrong.push(`${method} ${url} [${value}]: ${res.statusCode} ${res.body.slice(0, 120)}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('should answer 401 before looking at headers when there is no token', async () => {
    const { app } = get();
    const res = await app.inject({ method: 'GET', url: '/api/v1/itemtype' });
    expect(res.statusCode).toBe(401);
  });

  it('should answer 404 "Project not found." for a project that does not exist, of another tenant, institute, or without a grant', async () => {
    const { app, db } = get();
    const instituteA = randomUUID();
    const managerA = await managerUser(app, { instituteId: instituteA });
    const managerB = await managerUser(app, { instituteId: randomUUID() });
    const staff = await staffUser(app);
    const projectA = await createProject(app, managerA);
    await createTenant(db, 'othertenant', ['Permissions.Projects.View', 'Permissions.Projects.Manage']);
    const foreign = await createSignedInUser(app, { roles: ['Admin'], tenantId: 'othertenant' });
    const missing = 987_654_321;
    for (const [user, id] of [
      [managerA, missing],
      [managerB, projectA],
      [staff, projectA],
      [foreign, projectA],
    ] as const) {
      const res = await call(app, user, 'GET', '/api/v1/itemtype', { project: id });
      expect(res.statusCode).toBe(404);
      expect(res.json().messages).toEqual(['Project not found.']);
    }
  });

  it('should answer 404 for a record of another project than the header names', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const one = await createProject(app, manager);
    const two = await createProject(app, manager);
    const examOfTwo = await createExam(app, manager, two);
    const category = (await call(app, manager, 'POST', '/api/v1/category', { project: two, body: { name: 'Physics' } })).json() as { categoryId: number };
    const itemType = (
      await call(app, manager, 'POST', '/api/v1/itemtype', {
        project: two,
        body: { name: 'TF', kind: 'trueFalse', marking: { correct: 1, wrong: 0, unanswered: 0 } },
      })
    ).json() as { itemTypeId: number };
    const checks: Array<[string, 'GET' | 'PUT' | 'POST' | 'DELETE', string, unknown]> = [
      ['project', 'GET', `/api/v1/project/${two}`, undefined],
      ['project', 'PUT', `/api/v1/project/${two}`, { name: 'x', version: 1 }],
      ['exam', 'GET', `/api/v1/exam/${examOfTwo}`, undefined],
      ['exam', 'POST', `/api/v1/exam/${examOfTwo}/status`, { event: 'exam.schedule' }],
      ['category', 'PUT', `/api/v1/category/${category.categoryId}`, { name: 'x', version: 1 }],
      ['category', 'DELETE', `/api/v1/category/${category.categoryId}`, undefined],
      ['item type', 'PUT', `/api/v1/itemtype/${itemType.itemTypeId}`, { name: 'x', version: 1 }],
    ];
    for (const [what, method, url, body] of checks) {
      const res = await call(app, manager, method, url, { project: one, body });
      expect(res.statusCode, `${what} ${method} ${url}`).toBe(404);
    }
    // The same calls under the right header work.
    expect((await call(app, manager, 'GET', `/api/v1/exam/${examOfTwo}`, { project: two })).statusCode).toBe(200);
  });

  it('should read the paper call header as examId or examId&paperId and refuse anything else', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const staff = await staffUser(app);
    const project = await createProject(app, manager);
    const examA = await createExam(app, manager, project);
    const examB = await createExam(app, manager, project);
    await grant(app, manager, project, staff, 'Invigilator', examA);
    const missing = await call(app, manager, 'GET', '/api/v1/exam/mypermissions');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toEqual({ ExamId: ['The ExamId header is required.'] });
    for (const bad of ['x', '1&', '&2', '1&2&3', '1,2', '-1', '0&1']) {
      const res = await call(app, manager, 'GET', '/api/v1/exam/mypermissions', { exam: bad });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().errors.ExamId).toEqual(['The ExamId header must be an exam id, or an exam id and a paper id joined with & (e.g. 42&7).']);
    }
    expect((await call(app, manager, 'GET', '/api/v1/exam/mypermissions', { exam: `${examA}&9` })).json()).toMatchObject({ examId: examA, paperId: 9 });
    expect((await call(app, staff, 'GET', '/api/v1/exam/mypermissions', { exam: examA })).json()).toMatchObject({ examId: examA, paperId: null });
    // An exam of the project the staff member holds no grant on, and an unknown exam: not found, alike.
    for (const exam of [examB, 987654321]) {
      const res = await call(app, staff, 'GET', '/api/v1/exam/mypermissions', { exam });
      expect(res.statusCode).toBe(404);
      expect(res.json().messages).toEqual(['Exam not found.']);
    }
    // A ProjectId sent beside it must be the exam's project.
    const otherProject = await createProject(app, manager);
    expect((await call(app, manager, 'GET', '/api/v1/exam/mypermissions', { exam: examA, project: otherProject })).statusCode).toBe(404);
    expect((await call(app, manager, 'GET', '/api/v1/exam/mypermissions', { exam: examA, project })).statusCode).toBe(200);
  });

  it('should ignore context headers on global calls', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const res = await call(app, manager, 'POST', '/api/v1/project/search', { project: 'garbage', exam: 'garbage', body: {} });
    expect(res.statusCode).toBe(200);
  });
});
