import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, expect, it } from 'vitest';
import { routeMatrix } from '#tests/server/users/route-matrix.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createSignedInUser, createUser, type TestUser } from '#tests/setup/test-users.ts';
import {
  activateProject,
  call,
  createExam,
  createProject,
  grant,
  managerUser,
  sendProjectEvent,
  staffUser,
  tinyPng,
  uniqueCode,
  uploadFiles,
} from './workspace-kit.ts';

/**
 * The route × role × grant matrix of the exam workspace (deny by default): every route, called
 * by each kind of caller, answers exactly as the table below — written by hand from EXAMS.md
 * and docs/decisions/0090, not derived from the code. `ok` is any 2xx.
 */
const callers = ['admin', 'examManager', 'projectAdmin', 'reviewer', 'examEvaluator', 'staffNoGrant', 'otherInstitute', 'candidate', 'supportAgent'] as const;
type Caller = (typeof callers)[number];
type Outcome = 'ok' | 403 | 404;

const row = (ok: Caller[], notFound: Caller[]): Record<Caller, Outcome> =>
  Object.fromEntries(callers.map((c) => [c, ok.includes(c) ? 'ok' : notFound.includes(c) ? 404 : 403])) as Record<Caller, Outcome>;

const withProjectsView: Caller[] = ['admin', 'examManager', 'projectAdmin', 'reviewer', 'examEvaluator', 'staffNoGrant', 'otherInstitute'];
const anyGrant: Caller[] = ['admin', 'examManager', 'projectAdmin', 'reviewer', 'examEvaluator'];
const unreached: Caller[] = ['staffNoGrant', 'otherInstitute'];
const configurers: Caller[] = ['admin', 'examManager', 'projectAdmin'];

const expected = {
  global: row(withProjectsView, []),
  createProject: row(['admin', 'examManager', 'otherInstitute'], []),
  deleteTemplate: row(['admin', 'examManager', 'otherInstitute'], []),
  viewProject: row(anyGrant, unreached),
  configure: row(configurers, unreached),
  saveTemplate: row(['admin', 'examManager'], ['otherInstitute']),
  viewExam: row(anyGrant, unreached),
  runExam: row(configurers, unreached),
};

interface World {
  app: FastifyInstance;
  users: Record<Caller, TestUser>;
  managerA: TestUser;
  instituteA: string;
  projectId: number;
  examId: number;
}

/** A project of institute A with its team: the ProjectAdmin, a reviewer (project-wide) and an evaluator (one exam). */
async function teamProject(w: Omit<World, 'projectId' | 'examId'>, active: boolean) {
  const projectId = await createProject(w.app, w.managerA);
  const examId = await createExam(w.app, w.managerA, projectId);
  await grant(w.app, w.managerA, projectId, w.users.projectAdmin, 'ProjectAdmin');
  await grant(w.app, w.managerA, projectId, w.users.reviewer, 'ItemReviewer');
  await grant(w.app, w.managerA, projectId, w.users.examEvaluator, 'Evaluator', examId);
  if (active) await activateProject(w.app, w.managerA, projectId);
  return { projectId, examId };
}

async function json(w: World, url: string, method: 'GET' | 'POST' = 'GET', body?: unknown) {
  return (await call(w.app, w.managerA, method, url, { project: w.projectId, body })).json() as Record<string, any>;
}

type Cell = { route: string; expect: Record<Caller, Outcome>; run: (w: World, user: TestUser) => Promise<{ statusCode: number; body: string }> };

const cells: Cell[] = [
  { route: 'POST /api/v1/project/search', expect: expected.global, run: (w, u) => call(w.app, u, 'POST', '/api/v1/project/search', { body: {} }) },
  {
    route: 'POST /api/v1/project',
    expect: expected.createProject,
    run: (w, u) => call(w.app, u, 'POST', '/api/v1/project', { body: { code: uniqueCode(), name: 'New board' } }),
  },
  {
    route: 'GET /api/v1/project/:id',
    expect: expected.viewProject,
    run: (w, u) => call(w.app, u, 'GET', `/api/v1/project/${w.projectId}`, { project: w.projectId }),
  },
  {
    route: 'PUT /api/v1/project/:id',
    expect: expected.configure,
    run: async (w, u) =>
      call(w.app, u, 'PUT', `/api/v1/project/${w.projectId}`, {
        project: w.projectId,
        body: { description: 'Edited', version: (await json(w, `/api/v1/project/${w.projectId}`)).version },
      }),
  },
  {
    route: 'POST /api/v1/project/:id/status',
    expect: expected.configure,
    run: async (w, u) => {
      const fresh = await teamProject(w, false);
      return sendProjectEvent(w.app, u, fresh.projectId, 'project.startSetup');
    },
  },
  {
    route: 'GET /api/v1/project/:id/history',
    expect: expected.viewProject,
    run: (w, u) => call(w.app, u, 'GET', `/api/v1/project/${w.projectId}/history`, { project: w.projectId }),
  },
  {
    route: 'POST /api/v1/project/:id/savetemplate',
    expect: expected.saveTemplate,
    run: (w, u) => call(w.app, u, 'POST', `/api/v1/project/${w.projectId}/savetemplate`, { project: w.projectId, body: { name: `Template ${uniqueCode()}` } }),
  },
  { route: 'GET /api/v1/projecttemplate', expect: expected.global, run: (w, u) => call(w.app, u, 'GET', '/api/v1/projecttemplate') },
  {
    route: 'DELETE /api/v1/projecttemplate/:id',
    expect: expected.deleteTemplate,
    run: async (w, u) => {
      const saved = await call(w.app, w.managerA, 'POST', `/api/v1/project/${w.projectId}/savetemplate`, {
        project: w.projectId,
        body: { name: `Disposable ${uniqueCode()}` },
      });
      return call(w.app, u, 'DELETE', `/api/v1/projecttemplate/${saved.json().templateId}`);
    },
  },
  {
    route: 'POST /api/v1/exam/search',
    expect: expected.viewProject,
    run: (w, u) => call(w.app, u, 'POST', '/api/v1/exam/search', { project: w.projectId, body: {} }),
  },
  {
    route: 'POST /api/v1/exam',
    expect: expected.configure,
    run: (w, u) => call(w.app, u, 'POST', '/api/v1/exam', { project: w.projectId, body: { code: uniqueCode('E'), name: 'Science' } }),
  },
  { route: 'GET /api/v1/exam/:id', expect: expected.viewExam, run: (w, u) => call(w.app, u, 'GET', `/api/v1/exam/${w.examId}`, { project: w.projectId }) },
  {
    route: 'PUT /api/v1/exam/:id',
    expect: expected.runExam,
    run: async (w, u) =>
      call(w.app, u, 'PUT', `/api/v1/exam/${w.examId}`, {
        project: w.projectId,
        body: { description: 'Edited', version: (await json(w, `/api/v1/exam/${w.examId}`)).version },
      }),
  },
  {
    route: 'POST /api/v1/exam/:id/status',
    expect: expected.runExam,
    run: async (w, u) => {
      const examId = await createExam(w.app, w.managerA, w.projectId);
      await grant(w.app, w.managerA, w.projectId, w.users.examEvaluator, 'Evaluator', examId);
      return call(w.app, u, 'POST', `/api/v1/exam/${examId}/status`, { project: w.projectId, body: { event: 'exam.schedule' } });
    },
  },
  {
    route: 'GET /api/v1/exam/:id/history',
    expect: expected.viewExam,
    run: (w, u) => call(w.app, u, 'GET', `/api/v1/exam/${w.examId}/history`, { project: w.projectId }),
  },
  {
    route: 'GET /api/v1/exam/mypermissions',
    expect: expected.viewExam,
    run: (w, u) => call(w.app, u, 'GET', '/api/v1/exam/mypermissions', { exam: w.examId }),
  },
  {
    route: 'POST /api/v1/examgrant/search',
    expect: expected.viewProject,
    run: (w, u) => call(w.app, u, 'POST', '/api/v1/examgrant/search', { project: w.projectId, body: {} }),
  },
  {
    route: 'POST /api/v1/examgrant',
    expect: expected.configure,
    run: async (w, u) => {
      const newcomer = await createUser(w.app.db, { roles: ['ExamStaff'], instituteId: w.instituteA });
      return call(w.app, u, 'POST', '/api/v1/examgrant', { project: w.projectId, body: { userId: newcomer.id, permission: 'ItemAuthor' } });
    },
  },
  {
    route: 'DELETE /api/v1/examgrant/:id',
    expect: expected.configure,
    run: async (w, u) => {
      const newcomer = await createUser(w.app.db, { roles: ['ExamStaff'], instituteId: w.instituteA });
      const grantId = await grant(w.app, w.managerA, w.projectId, newcomer, 'Evaluator');
      return call(w.app, u, 'DELETE', `/api/v1/examgrant/${grantId}`, { project: w.projectId });
    },
  },
  { route: 'GET /api/v1/examgrant/permissions', expect: expected.global, run: (w, u) => call(w.app, u, 'GET', '/api/v1/examgrant/permissions') },
  { route: 'GET /api/v1/itemtype', expect: expected.viewProject, run: (w, u) => call(w.app, u, 'GET', '/api/v1/itemtype', { project: w.projectId }) },
  {
    route: 'POST /api/v1/itemtype',
    expect: expected.configure,
    run: (w, u) =>
      call(w.app, u, 'POST', '/api/v1/itemtype', {
        project: w.projectId,
        body: { name: `TF ${uniqueCode()}`, kind: 'trueFalse', marking: { correct: 1, wrong: 0, unanswered: 0 } },
      }),
  },
  {
    route: 'PUT /api/v1/itemtype/:id',
    expect: expected.configure,
    run: async (w, u) => {
      const [type] = (await call(w.app, w.managerA, 'GET', '/api/v1/itemtype', { project: w.projectId })).json() as Array<{
        itemTypeId: number;
        version: number;
      }>;
      return call(w.app, u, 'PUT', `/api/v1/itemtype/${type.itemTypeId}`, { project: w.projectId, body: { sortOrder: 1, version: type.version } });
    },
  },
  { route: 'GET /api/v1/category', expect: expected.viewProject, run: (w, u) => call(w.app, u, 'GET', '/api/v1/category', { project: w.projectId }) },
  {
    route: 'POST /api/v1/category',
    expect: expected.configure,
    run: (w, u) => call(w.app, u, 'POST', '/api/v1/category', { project: w.projectId, body: { name: `Topic ${uniqueCode()}` } }),
  },
  ...(['PUT', 'MOVE', 'DELETE'] as const).map((kind): Cell => ({
    route: kind === 'PUT' ? 'PUT /api/v1/category/:id' : kind === 'MOVE' ? 'POST /api/v1/category/:id/move' : 'DELETE /api/v1/category/:id',
    expect: expected.configure,
    run: async (w, u) => {
      const category = (await json(w, '/api/v1/category', 'POST', { name: `Topic ${uniqueCode()}` })) as { categoryId: number };
      const url = `/api/v1/category/${category.categoryId}`;
      if (kind === 'PUT') return call(w.app, u, 'PUT', url, { project: w.projectId, body: { name: `Renamed ${uniqueCode()}`, version: 1 } });
      if (kind === 'MOVE') return call(w.app, u, 'POST', `${url}/move`, { project: w.projectId, body: { parentId: null, sortOrder: 0, version: 1 } });
      return call(w.app, u, 'DELETE', url, { project: w.projectId });
    },
  })),
  {
    route: 'POST /api/v1/categoryfile',
    expect: expected.configure,
    run: async (w, u) => {
      const [category] = (await call(w.app, w.managerA, 'GET', '/api/v1/category', { project: w.projectId })).json() as Array<{ categoryId: number }>;
      return uploadFiles(w.app, u, w.projectId, category.categoryId, [{ name: 'figure.png', content: tinyPng }]);
    },
  },
  { route: 'GET /api/v1/categoryfile', expect: expected.viewProject, run: (w, u) => call(w.app, u, 'GET', '/api/v1/categoryfile', { project: w.projectId }) },
  ...(['GET', 'DELETE'] as const).map((method): Cell => ({
    route: `${method} /api/v1/categoryfile/:id`,
    expect: method === 'GET' ? expected.viewProject : expected.configure,
    run: async (w, u) => {
      const [category] = (await call(w.app, w.managerA, 'GET', '/api/v1/category', { project: w.projectId })).json() as Array<{ categoryId: number }>;
      const [file] = (await uploadFiles(w.app, w.managerA, w.projectId, category.categoryId, [{ name: 'figure.png', content: tinyPng }])).json() as Array<{
        fileId: string;
      }>;
      return call(w.app, u, method, `/api/v1/categoryfile/${file.fileId}`, { project: w.projectId });
    },
  })),
  { route: 'GET /api/v1/flow', expect: expected.viewProject, run: (w, u) => call(w.app, u, 'GET', '/api/v1/flow', { project: w.projectId }) },
  ...(['POST', 'PUT'] as const).map((kind): Cell => ({
    route: kind === 'POST' ? 'POST /api/v1/flow' : 'PUT /api/v1/flow/:id',
    expect: expected.configure,
    run: async (w, u) => {
      const definition = {
        stages: [{ id: 'review', name: 'Review', permission: 'ItemReviewer' }],
        submitPermission: 'ItemAuthor',
        retirePermission: 'ProjectAdmin',
      };
      if (kind === 'POST')
        return call(w.app, u, 'POST', '/api/v1/flow', { project: w.projectId, body: { name: `Flow ${uniqueCode()}`, recordKind: 'item', definition } });
      const flow = (await json(w, '/api/v1/flow', 'POST', { name: `Flow ${uniqueCode()}`, recordKind: 'paper', definition })) as { flowId: number };
      return call(w.app, u, 'PUT', `/api/v1/flow/${flow.flowId}`, { project: w.projectId, body: { isActive: false, version: 1 } });
    },
  })),
  {
    route: 'POST /api/v1/flow/:id/preview',
    expect: expected.configure,
    run: async (w, u) => {
      const definition = {
        stages: [{ id: 'review', name: 'Review', permission: 'ItemReviewer' }],
        submitPermission: 'ItemAuthor',
        retirePermission: 'ProjectAdmin',
      };
      const flow = (await json(w, '/api/v1/flow', 'POST', { name: `Flow ${uniqueCode()}`, recordKind: 'item', definition })) as { flowId: number };
      const next = { ...definition, stages: [{ id: 'check', name: 'Check', permission: 'Moderator' }] };
      return call(w.app, u, 'POST', `/api/v1/flow/${flow.flowId}/preview`, { project: w.projectId, body: { definition: next } });
    },
  },
];

describeEachDatabase('exam workspace: route × role × grant matrix', (get) => {
  let world: World;

  beforeAll(async () => {
    const { app } = get();
    const instituteA = randomUUID();
    const managerA = await managerUser(app, { instituteId: instituteA });
    const users: Record<Caller, TestUser> = {
      admin: await createSignedInUser(app, { roles: ['Admin'], userType: null }),
      examManager: await managerUser(app),
      projectAdmin: await staffUser(app, { instituteId: instituteA }),
      reviewer: await staffUser(app, { instituteId: instituteA }),
      examEvaluator: await staffUser(app, { instituteId: instituteA }),
      staffNoGrant: await staffUser(app, { instituteId: instituteA }),
      otherInstitute: await managerUser(app, { instituteId: randomUUID() }),
      candidate: await createSignedInUser(app, { roles: ['Candidate'] }),
      supportAgent: await createSignedInUser(app, { roles: ['SupportAgent'] }),
    };
    const partial = { app, users, managerA, instituteA };
    world = { ...partial, ...(await teamProject(partial, true)) };
  });

  it('should cover every exam workspace route of the route matrix', () => {
    const workspaceRoutes = routeMatrix
      .map(([method, url]) => `${method} ${url}`)
      .filter((key) => /\/api\/v1\/(project|projecttemplate|exam|examgrant|itemtype|category|categoryfile|flow)(\/|$)/.test(key.split(' ')[1]))
      // An exam's results, their publication and its result settings are issue 20's: the route matrix and tests/server/results cover who may call them.
      .filter((key) => !/\/(results|result-settings)(\/|$)/.test(key.split(' ')[1]));
    expect(cells.map((c) => c.route).sort()).toEqual(workspaceRoutes.sort());
  });

  for (const cell of cells) {
    it(`should answer ${cell.route} for each caller as the table says`, async () => {
      const wrong: string[] = [];
      for (const caller of callers) {
        const res = await cell.run(world, world.users[caller]);
        const outcome: Outcome | number = res.statusCode >= 200 && res.statusCode < 300 ? 'ok' : res.statusCode;
        if (outcome !== cell.expect[caller]) wrong.push(`${caller}: ${res.statusCode} (expected ${cell.expect[caller]}) ${res.body.slice(0, 160)}`);
      }
      expect(wrong).toEqual([]);
    });
  }
});
