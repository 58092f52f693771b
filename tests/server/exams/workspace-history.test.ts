import { expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { activateProject, call, createExam, createProject, grant, managerUser, sendExamEvent, sendProjectEvent, staffUser } from './workspace-kit.ts';

type Json = Record<string, any>;
type Page = { data: Json[]; totalCount: number; totalPages: number; currentPage: number; pageSize: number; hasNextPage: boolean };

/**
 * Issue 15, the rest of the workspace: the project and exam history (decision 0166), reopening
 * a Closed project through the set-up check (0165), and status actions only for the parties
 * the machines name (0167).
 */
describeEachDatabase('exam workspace history, reopening and admin-only actions', (get) => {
  it('GET /api/v1/exam/:id/history should page what happened, newest first: edits with their fields, the withdrawal with its reason', async () => {
    const { app } = get();
    const manager = await managerUser(app, { firstName: 'Asha', lastName: 'Rao' });
    const moderator = await staffUser(app, { firstName: 'Vikram', lastName: 'Shah' });
    const id = await createProject(app, manager);
    await activateProject(app, manager, id);
    const examId = await createExam(app, manager, id);
    await grant(app, manager, id, moderator, 'Moderator', examId);
    const edited = await call(app, manager, 'PUT', `/api/v1/exam/${examId}`, {
      project: id,
      body: { passRules: { passPercent: 40, sectionMinimumPercent: 25 }, gradeBands: [{ grade: 'A', minPercent: 80 }], name: 'Mathematics', version: 1 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      passRules: { passPercent: 40, sectionMinimumPercent: 25 },
      gradeBands: [{ grade: 'A', minPercent: 80 }],
      version: 2,
    });
    for (const event of ['exam.schedule', 'exam.start', 'exam.end']) expect((await sendExamEvent(app, manager, id, examId, event)).statusCode).toBe(200);
    expect((await sendExamEvent(app, moderator, id, examId, 'exam.publishResults')).statusCode).toBe(200);
    const withdrawn = await sendExamEvent(app, moderator, id, examId, 'exam.withdrawResults', { reason: '  Wrong key in question 14  ' });
    expect(withdrawn.json()).toMatchObject({ fromStatus: 'ResultsPublished', toStatus: 'Evaluation' });

    const first = (await call(app, moderator, 'GET', `/api/v1/exam/${examId}/history?pageSize=3`, { project: id })).json() as Page;
    expect(first).toMatchObject({ totalCount: 7, totalPages: 3, currentPage: 1, pageSize: 3, hasNextPage: true });
    expect(first.data.map((h) => h.event)).toEqual(['exam.withdrawResults', 'exam.publishResults', 'exam.end']);
    expect(first.data[0]).toMatchObject({
      fromStatus: 'ResultsPublished',
      toStatus: 'Evaluation',
      reason: 'Wrong key in question 14',
      fields: [],
      by: { userId: moderator.id, name: 'Vikram Shah' },
    });
    const last = (await call(app, moderator, 'GET', `/api/v1/exam/${examId}/history?pageSize=3&pageNumber=3`, { project: id })).json() as Page;
    expect(last.data.map((h) => h.event)).toEqual(['exam.create']);
    const middle = (await call(app, moderator, 'GET', `/api/v1/exam/${examId}/history?pageSize=3&pageNumber=2`, { project: id })).json() as Page;
    expect(middle.data.map((h) => h.event)).toEqual(['exam.start', 'exam.schedule', 'exam.edit']);
    // The unchanged name is not listed: only what the edit changed.
    expect(middle.data[2]).toMatchObject({ fromStatus: null, toStatus: null, fields: ['passRules', 'gradeBands'], by: { name: 'Asha Rao' } });
  });

  it('GET /api/v1/project/:id/history should refuse a page size over 100 and a page below 1 with 400', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const id = await createProject(app, manager);
    expect((await call(app, manager, 'GET', `/api/v1/project/${id}/history?pageSize=101`, { project: id })).statusCode).toBe(400);
    expect((await call(app, manager, 'GET', `/api/v1/project/${id}/history?pageNumber=0`, { project: id })).statusCode).toBe(400);
    const ok = await call(app, manager, 'GET', `/api/v1/project/${id}/history?pageSize=100`, { project: id });
    expect(ok.json()).toMatchObject({ totalCount: 1, pageSize: 100, data: [{ event: 'project.create' }] });
  });

  it('should keep the reason of a project status change and the fields of a project edit in its history', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const id = await createProject(app, manager, { description: 'Old' });
    const edit = await call(app, manager, 'PUT', `/api/v1/project/${id}`, { project: id, body: { description: 'New', languages: ['en'], version: 1 } });
    expect(edit.statusCode).toBe(200);
    await activateProject(app, manager, id);
    expect((await sendProjectEvent(app, manager, id, 'project.close', { reason: 'The 2027 sitting is over' })).statusCode).toBe(200);
    const history = (await call(app, manager, 'GET', `/api/v1/project/${id}/history`, { project: id })).json() as Page;
    expect(history.data.map((h) => [h.event, h.fromStatus, h.toStatus, h.reason, h.fields])).toEqual([
      ['project.close', 'Active', 'Closed', 'The 2027 sitting is over', []],
      ['project.activate', 'Setup', 'Active', null, []],
      ['project.startSetup', 'Draft', 'Setup', null, []],
      // languages were sent unchanged: only the description is listed.
      ['project.edit', null, null, null, ['description']],
      ['project.create', null, 'Draft', null, []],
    ]);
    const tooLong = await sendProjectEvent(app, manager, id, 'project.reopen', { reason: 'x'.repeat(2001) });
    expect(tooLong.statusCode).toBe(400);
  });

  it('should reopen a Closed project to Active when it is set up, and to Setup when it is not (a restored Draft)', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const setUp = await createProject(app, manager);
    await activateProject(app, manager, setUp);
    await sendProjectEvent(app, manager, setUp, 'project.close');
    expect((await sendProjectEvent(app, manager, setUp, 'project.reopen')).json()).toMatchObject({ fromStatus: 'Closed', toStatus: 'Active' });

    const bare = await createProject(app, manager);
    expect((await sendProjectEvent(app, manager, bare, 'project.archive')).statusCode).toBe(200);
    expect((await sendProjectEvent(app, manager, bare, 'project.restore')).json().toStatus).toBe('Closed');
    const reopened = await sendProjectEvent(app, manager, bare, 'project.reopen');
    expect(reopened.statusCode).toBe(200);
    expect(reopened.json()).toMatchObject({ fromStatus: 'Closed', toStatus: 'Setup', record: { status: 'Setup', setup: { itemTypes: 0, categories: 0 } } });
    // It goes Active only through the stepper's activation, which checks the set-up again.
    expect((await sendProjectEvent(app, manager, bare, 'project.activate')).json().messages).toEqual([
      'The project cannot go Active yet: it needs an item type and a category.',
    ]);
  });

  it('POST /api/v1/project/search should list for each project only the actions its caller may take', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const admin = await staffUser(app);
    const author = await staffUser(app);
    const id = await createProject(app, manager);
    await grant(app, manager, id, admin, 'ProjectAdmin');
    await grant(app, manager, id, author, 'ItemAuthor');
    await activateProject(app, manager, id);
    await sendProjectEvent(app, manager, id, 'project.close');
    const actionsOf = async (user: typeof manager) => {
      const res = await call(app, user, 'POST', '/api/v1/project/search', { body: { pageSize: 100 } });
      return ((res.json() as Page).data.find((p) => p.projectId === id) as Json).actions;
    };
    expect(await actionsOf(manager)).toEqual(['project.reopen', 'project.archive']);
    expect(await actionsOf(admin)).toEqual(['project.reopen']);
    expect(await actionsOf(author)).toEqual([]);
    // …and the server refuses the others what the list does not offer them.
    const byAuthor = await sendProjectEvent(app, author, id, 'project.reopen');
    expect(byAuthor.statusCode).toBe(403);
    expect(byAuthor.json().messages).toEqual(['You may not reopen this project.']);
    expect((await sendProjectEvent(app, admin, id, 'project.archive')).statusCode).toBe(403);
    expect((await sendProjectEvent(app, admin, id, 'project.reopen')).statusCode).toBe(200);
  });

  it('GET /api/v1/exam/:id should offer a moderator only the results events and refuse them the rest', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const moderator = await staffUser(app);
    const author = await staffUser(app);
    const id = await createProject(app, manager);
    await activateProject(app, manager, id);
    const examId = await createExam(app, manager, id);
    await grant(app, manager, id, moderator, 'Moderator', examId);
    await grant(app, manager, id, author, 'ItemAuthor');
    const actionsOf = async (user: typeof manager) => (await call(app, user, 'GET', `/api/v1/exam/${examId}`, { project: id })).json().actions;
    expect(await actionsOf(manager)).toEqual(['exam.schedule', 'exam.edit']);
    expect(await actionsOf(moderator)).toEqual([]);
    expect(await actionsOf(author)).toEqual([]);
    expect((await sendExamEvent(app, moderator, id, examId, 'exam.schedule')).statusCode).toBe(403);
    const edit = await call(app, author, 'PUT', `/api/v1/exam/${examId}`, { project: id, body: { passRules: { passPercent: 10 }, version: 1 } });
    expect(edit.statusCode).toBe(403);
    for (const event of ['exam.schedule', 'exam.start', 'exam.end']) await sendExamEvent(app, manager, id, examId, event);
    expect(await actionsOf(moderator)).toEqual(['exam.publishResults']);
    expect((await sendExamEvent(app, author, id, examId, 'exam.publishResults')).statusCode).toBe(403);
  });

  it('PUT /api/v1/exam/:id should answer 409 naming who saved first, and keep the rules they saved', async () => {
    const { app } = get();
    const manager = await managerUser(app, { firstName: 'Ravi', lastName: 'Kumar' });
    const other = await managerUser(app);
    const id = await createProject(app, manager);
    const examId = await createExam(app, manager, id);
    expect((await call(app, manager, 'PUT', `/api/v1/exam/${examId}`, { project: id, body: { passRules: { passPercent: 40 }, version: 1 } })).statusCode).toBe(
      200,
    );
    const stale = await call(app, other, 'PUT', `/api/v1/exam/${examId}`, { project: id, body: { passRules: { passPercent: 50 }, version: 1 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ currentVersion: 2, changedBy: { userId: manager.id, name: 'Ravi Kumar' } });
    const now = (await call(app, other, 'GET', `/api/v1/exam/${examId}`, { project: id })).json();
    expect(now.passRules).toEqual({ passPercent: 40 });
    const history = (await call(app, other, 'GET', `/api/v1/exam/${examId}/history`, { project: id })).json() as Page;
    expect(history.data.filter((h) => h.event === 'exam.edit')).toHaveLength(1);
  });
});
