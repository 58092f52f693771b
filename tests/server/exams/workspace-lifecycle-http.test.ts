import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { examStatusTestPaths, projectStatusTestPaths } from '#machines/exams/exam-records.model.ts';
import { examStatusMachine, type ExamEvent, type ExamStatus } from '#machines/exams/exam-status.machine.ts';
import { projectStatusMachine, type ProjectEvent, type ProjectStatus } from '#machines/exams/project-status.machine.ts';
import { examTransitionTable, expectedExamStatus, expectedProjectStatus, projectTransitionTable } from '#tests/fixtures/exam-record-transitions.ts';
import { replayRecorder } from '#tests/setup/replay-results.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import {
  activateProject,
  call,
  createExam,
  createProject,
  grant,
  managerUser,
  sendExamEvent,
  sendProjectEvent,
  staffUser,
  uniqueCode,
} from './workspace-kit.ts';

const setUpOf = (event: ProjectEvent) => !('setup' in event) || (event.setup.itemTypes > 0 && event.setup.categories > 0);

/**
 * The model-based paths of the project and exam machines, replayed over HTTP. After every
 * step the stored status must be what the hand-written transition table expects (not what the
 * machine says), with one history row per status change; and at every step one event the table
 * refuses from that status is tried and must be refused with 409, changing nothing.
 */
describeEachDatabase('project and exam lifecycles over HTTP', (get) => {
  let manager: TestUser;
  let staffAdmin: TestUser;
  let moderator: TestUser;
  // Each path's result goes to /machines: replayed over HTTP against the hand-written table.
  const projectRecorder = replayRecorder(projectStatusMachine, 'http', true);
  const examRecorder = replayRecorder(examStatusMachine, 'http', true);
  afterAll(() => {
    projectRecorder.write();
    examRecorder.write();
  });

  beforeAll(async () => {
    const { app } = get();
    manager = await managerUser(app, { firstName: 'Tenant', lastName: 'Manager' });
    staffAdmin = await staffUser(app, { firstName: 'Project', lastName: 'Admin' });
    moderator = await staffUser(app, { firstName: 'Exam', lastName: 'Moderator' });
  });

  async function project(app: FastifyInstance, id: number) {
    return (await call(app, manager, 'GET', `/api/v1/project/${id}`, { project: id })).json() as { status: ProjectStatus; version: number };
  }

  /** Sends one model event over the API as a caller holding the event's part. */
  async function sendProject(app: FastifyInstance, id: number, event: ProjectEvent) {
    const user = event.by.tenantManager ? manager : staffAdmin;
    if (event.type === 'project.edit') {
      const { version } = await project(app, id);
      return call(app, user, 'PUT', `/api/v1/project/${id}`, { project: id, body: { description: `Edited ${uniqueCode()}`, version } });
    }
    if (event.type === 'project.configure') {
      return call(app, user, 'POST', '/api/v1/category', { project: id, body: { name: `Topic ${uniqueCode()}` } });
    }
    if (event.type === 'project.reopen') {
      // A Closed project is read-only over the API: the model's set-up facts are made true in the tables.
      const { db } = get();
      const setUp = setUpOf(event);
      await db.query(`update item_types set is_active = $2 where project_id = $1`, [id, setUp]);
      await db.query(`update categories set is_retired = $2 where project_id = $1`, [id, !setUp]);
      if (setUp) {
        const tenant = await db.query<{ tenant_id: string }>(`select tenant_id from projects where id = $1`, [id]);
        await db.query(
          `insert into item_types (tenant_id, project_id, name, kind, marking) values ($1, $2, $3, 'singleChoice', '{"correct":1,"wrong":0}'::jsonb)`,
          [tenant.rows[0].tenant_id, id, `MCQ ${uniqueCode()}`],
        );
        await db.query(`insert into categories (tenant_id, project_id, name) values ($1, $2, $3)`, [tenant.rows[0].tenant_id, id, `Subject ${uniqueCode()}`]);
      }
    }
    if (event.type === 'project.activate') {
      // The model says the set-up is complete; make it so through the API first.
      await call(app, user, 'POST', '/api/v1/itemtype', {
        project: id,
        body: { name: `MCQ ${uniqueCode()}`, kind: 'singleChoice', marking: { correct: 1, wrong: 0, unanswered: 0 } },
      });
      await call(app, user, 'POST', '/api/v1/category', { project: id, body: { name: `Subject ${uniqueCode()}` } });
    }
    return sendProjectEvent(app, user, id, event.type);
  }

  it('should walk every project path with the stored status as the table expects at every step', async () => {
    const { app } = get();
    const paths = projectStatusTestPaths();
    expect(paths.length).toBeGreaterThan(20);
    const statusEvents = projectTransitionTable.filter((r) => r.to !== 'same').map((r) => r.event);
    let steps = 0;
    let refusals = 0;
    for (const path of paths)
      await projectRecorder.run(path, async () => {
        const id = await createProject(app, manager);
        await grant(app, manager, id, staffAdmin, 'ProjectAdmin');
        let status: ProjectStatus = 'Draft';
        for (const step of path.steps.slice(1)) {
          const event = step.event as ProjectEvent;
          const expected = expectedProjectStatus(status, event.type, setUpOf(event));
          expect(expected, `${path.description}: the table has ${event.type} from ${status}`).toBeDefined();
          const res = await sendProject(app, id, event);
          expect(res.statusCode, `${path.description}: ${event.type} from ${status}: ${res.body}`).toBeLessThan(300);
          const stored = await project(app, id);
          expect(stored.status, `${path.description} after ${event.type}`).toBe(expected);
          status = expected!;
          steps += 1;
          // One refused status event from here (by the tenant manager, who may send them all).
          const refused = statusEvents.find((type) => expectedProjectStatus(status, type) === undefined);
          if (refused) {
            const before = await project(app, id);
            const res = await sendProjectEvent(app, manager, id, refused);
            expect(res.statusCode, `${refused} from ${status}`).toBe(409);
            expect(res.json().messages[0]).toMatch(new RegExp(`^A project in status ${status} cannot `));
            expect(await project(app, id)).toEqual(before);
            refusals += 1;
          }
        }
        const history = (await call(app, manager, 'GET', `/api/v1/project/${id}/history?pageSize=100`, { project: id })).json() as {
          data: Array<{ event: string; toStatus: string }>;
        };
        // Newest first: every status change and every edit of the project itself (configuration has its own records).
        const recorded = path.steps.slice(1).filter((s, i) => s.state.value !== path.steps[i].state.value || (s.event as ProjectEvent).type === 'project.edit');
        expect(history.data.map((h) => h.event).reverse()).toEqual(['project.create', ...recorded.map((s) => (s.event as ProjectEvent).type)]);
      });
    expect(steps).toBeGreaterThan(50);
    expect(refusals).toBe(steps);
  }, 240_000);

  it('should walk every exam path with the stored status as the table expects at every step', async () => {
    const { app } = get();
    const paths = examStatusTestPaths();
    const id = await createProject(app, manager);
    await grant(app, manager, id, staffAdmin, 'ProjectAdmin');
    await activateProject(app, manager, id);
    const statusEvents = examTransitionTable.filter((r) => r.to !== 'same').map((r) => r.event);
    let steps = 0;
    for (const path of paths)
      await examRecorder.run(path, async () => {
        const examId = await createExam(app, manager, id);
        await grant(app, manager, id, moderator, 'Moderator', examId);
        let status: ExamStatus = 'Draft';
        for (const step of path.steps.slice(1)) {
          const event = step.event as ExamEvent;
          const user = event.by.examManager ? manager : event.by.moderator ? moderator : staffAdmin;
          const expected = expectedExamStatus(status, event.type);
          expect(expected, `${path.description}: the table has ${event.type} from ${status}`).toBeDefined();
          const current = (await call(app, manager, 'GET', `/api/v1/exam/${examId}`, { project: id })).json() as { version: number };
          const res =
            event.type === 'exam.edit'
              ? await call(app, user, 'PUT', `/api/v1/exam/${examId}`, {
                  project: id,
                  body: { description: `Edited ${uniqueCode()}`, version: current.version },
                })
              : await sendExamEvent(app, user, id, examId, event.type, event.type === 'exam.withdrawResults' ? { reason: event.reason } : {});
          expect(res.statusCode, `${path.description}: ${event.type} from ${status}: ${res.body}`).toBeLessThan(300);
          const stored = (await call(app, manager, 'GET', `/api/v1/exam/${examId}`, { project: id })).json() as { status: ExamStatus };
          expect(stored.status, `${path.description} after ${event.type}`).toBe(expected);
          status = expected!;
          steps += 1;
          const refused = statusEvents.find((type) => expectedExamStatus(status, type) === undefined);
          if (refused) {
            const res = await sendExamEvent(app, manager, id, examId, refused, { reason: 'x' });
            expect(res.statusCode, `${refused} from ${status}`).toBe(409);
          }
        }
      });
    expect(steps).toBeGreaterThan(30);
  }, 240_000);
});
