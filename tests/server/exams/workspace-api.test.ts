import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { createSignedInUser } from '#tests/setup/test-users.ts';
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

type Json = Record<string, any>;

describeEachDatabase('exam workspace API', (get) => {
  it('should seed the two templates and list them first', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const res = await call(app, manager, 'GET', '/api/v1/projecttemplate');
    expect(res.statusCode).toBe(200);
    const names = (res.json() as Json[]).filter((t) => t.isSystem).map((t) => t.name);
    expect(names).toEqual(['Entrance test (CBT, negative marking)', 'School board examination']);
  });

  it('should create a project from a template with its item types, categories and flows, the creator as ProjectAdmin', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const templates = (await call(app, manager, 'GET', '/api/v1/projecttemplate')).json() as Json[];
    const board = templates.find((t) => t.name === 'School board examination')!;
    const res = await call(app, manager, 'POST', '/api/v1/project', {
      body: { code: uniqueCode('CBSE'), name: 'Class 10 Board 2027', languages: ['en', 'hi'], templateId: board.templateId },
    });
    expect(res.statusCode).toBe(201);
    const project = res.json() as Json;
    expect(res.headers.etag).toBe('"1"');
    expect(project).toMatchObject({
      status: 'Draft',
      languages: ['en', 'hi'],
      templateId: board.templateId,
      version: 1,
      setup: { itemTypes: 6, categories: 7, flows: 2, team: 1, exams: 0 },
      canConfigure: true,
    });
    expect(project.actions).toEqual(['project.startSetup', 'project.archive', 'project.edit', 'project.configure']);
    const categories = (await call(app, manager, 'GET', '/api/v1/category', { project: project.projectId })).json() as Json[];
    expect(categories.map((c) => c.name)).toEqual(['Mathematics', 'Algebra', 'Geometry', 'Science', 'Physics', 'Chemistry', 'Biology']);
    expect(categories[1].parentId).toBe(categories[0].categoryId);
    const flows = (await call(app, manager, 'GET', '/api/v1/flow', { project: project.projectId })).json() as Json[];
    expect(flows.map((f) => [f.name, f.states])).toEqual([
      ['Item review', ['Draft', 'review', 'approval', 'Approved', 'Retired']],
      ['Paper moderation', ['Draft', 'moderation', 'Approved', 'Retired']],
    ]);
    const team = (await call(app, manager, 'POST', '/api/v1/examgrant/search', { project: project.projectId, body: {} })).json() as Json;
    expect(team.data.map((g: Json) => [g.userId, g.permission, g.examId])).toEqual([[manager.id, 'ProjectAdmin', null]]);
    // The spec's search request allows `orderBy: null`: it means the default order.
    const unordered = await call(app, manager, 'POST', '/api/v1/examgrant/search', { project: project.projectId, body: { orderBy: null } });
    expect(unordered.statusCode).toBe(200);
    expect((unordered.json() as Json).data).toHaveLength(1);
    const projects = await call(app, manager, 'POST', '/api/v1/project/search', { body: { orderBy: null, pageNumber: 1, pageSize: 10 } });
    expect(projects.statusCode).toBe(200);
  });

  it('should refuse a duplicate project code with 409 and an unknown template with 400 on that field', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const code = uniqueCode();
    await createProject(app, manager, { code });
    const again = await call(app, manager, 'POST', '/api/v1/project', { body: { code: code.toLowerCase(), name: 'Again' } });
    expect(again.statusCode).toBe(409);
    expect(again.json().messages).toEqual([`A project with the code "${code.toLowerCase()}" already exists.`]);
    const template = await call(app, manager, 'POST', '/api/v1/project', { body: { code: uniqueCode(), name: 'X', templateId: 987654 } });
    expect(template.statusCode).toBe(400);
    expect(template.json().errors).toEqual({ templateId: ['Template 987654 was not found.'] });
  });

  it('should show staff only the projects and exams they are granted, and managers only their institute', async () => {
    const { app } = get();
    const instituteA = randomUUID();
    const instituteB = randomUUID();
    const managerA = await managerUser(app, { instituteId: instituteA });
    const managerB = await managerUser(app, { instituteId: instituteB });
    const staff = await staffUser(app, { instituteId: instituteA });
    const granted = await createProject(app, managerA, { name: 'Granted board' });
    const notGranted = await createProject(app, managerA, { name: 'Other board' });
    const ofB = await createProject(app, managerB, { name: 'Board of B' });
    const examOne = await createExam(app, managerA, granted, { name: 'Mathematics' });
    await createExam(app, managerA, granted, { name: 'Science' });
    await grant(app, managerA, granted, staff, 'Evaluator', examOne);

    const staffSees = (await call(app, staff, 'POST', '/api/v1/project/search', { body: { pageSize: 100 } })).json() as Json;
    expect(staffSees.data.map((p: Json) => p.projectId)).toEqual([granted]);
    const staffExams = (await call(app, staff, 'POST', '/api/v1/exam/search', { project: granted, body: {} })).json() as Json;
    expect(staffExams.data.map((e: Json) => e.name)).toEqual(['Mathematics']);
    expect(staffExams.totalCount).toBe(1);

    const aSees = ((await call(app, managerA, 'POST', '/api/v1/project/search', { body: { pageSize: 100 } })).json() as Json).data.map(
      (p: Json) => p.projectId,
    );
    expect(aSees).toContain(granted);
    expect(aSees).toContain(notGranted);
    expect(aSees).not.toContain(ofB);
    const crossInstitute = await call(app, managerA, 'GET', `/api/v1/project/${ofB}`, { project: ofB });
    expect(crossInstitute.statusCode).toBe(404);
    expect(crossInstitute.json().messages).toEqual(['Project not found.']);
    expect((await call(app, staff, 'GET', `/api/v1/project/${notGranted}`, { project: notGranted })).statusCode).toBe(404);
  });

  it('should find projects by keyword in code or name, with exact counts', async () => {
    const { app } = get();
    const manager = await managerUser(app, { instituteId: randomUUID() });
    await createProject(app, manager, { code: uniqueCode('JEE'), name: 'Engineering entrance 2027' });
    await createProject(app, manager, { code: uniqueCode('NEET'), name: 'Medical entrance 2027' });
    await createProject(app, manager, { code: uniqueCode('SSC'), name: 'Class 10 Board' });
    const res = await call(app, manager, 'POST', '/api/v1/project/search', { body: { keyword: 'ENTRANCE', orderBy: ['name asc'], pageSize: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ totalCount: 2, totalPages: 2, currentPage: 1, hasNextPage: true, pageSize: 1 });
    expect(res.json().data[0].name).toBe('Engineering entrance 2027');
    const badOrder = await call(app, manager, 'POST', '/api/v1/project/search', { body: { orderBy: ['secret desc'] } });
    expect(badOrder.statusCode).toBe(400);
  });

  it('should answer 409 naming who changed a project when an edit is made on an older version', async () => {
    const { app } = get();
    const manager = await managerUser(app, { firstName: 'Meera', lastName: 'Iyer' });
    const colleague = await managerUser(app, { firstName: 'Ravi', lastName: 'Kumar' });
    const id = await createProject(app, manager);
    const first = await call(app, colleague, 'PUT', `/api/v1/project/${id}`, { project: id, body: { name: 'Class 10 Board 2027 (revised)', version: 1 } });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ version: 2, name: 'Class 10 Board 2027 (revised)', updatedBy: { userId: colleague.id, name: 'Ravi Kumar' } });
    expect(first.headers.etag).toBe('"2"');
    const stale = await call(app, manager, 'PUT', `/api/v1/project/${id}`, { project: id, body: { description: 'Mine', version: 1 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().messages[0]).toMatch(
      /^This project was changed by Ravi Kumar at .+ \(version 2; your edit was made on version 1\)\. Reload it and apply your edit again\.$/,
    );
    expect(stale.json()).toMatchObject({ currentVersion: 2, changedBy: { userId: colleague.id, name: 'Ravi Kumar' } });
    const viaIfMatch = await call(app, manager, 'PUT', `/api/v1/project/${id}`, { project: id, headers: { 'if-match': '"2"' }, body: { description: 'Mine' } });
    expect(viaIfMatch.statusCode).toBe(200);
    expect(viaIfMatch.json().version).toBe(3);
    const none = await call(app, manager, 'PUT', `/api/v1/project/${id}`, { project: id, body: { description: 'No version' } });
    expect(none.statusCode).toBe(400);
    expect(none.json().errors).toEqual({ version: ['The version field is required (or send If-Match with the version you edited).'] });
  });

  it('should let exactly one of many concurrent edits on the same version win', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const id = await createProject(app, manager);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => call(app, manager, 'PUT', `/api/v1/project/${id}`, { project: id, body: { name: `Edit ${i}`, version: 1 } })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(11).fill(409)]);
    const now = (await call(app, manager, 'GET', `/api/v1/project/${id}`, { project: id })).json() as Json;
    expect(now.version).toBe(2);
  });

  it('should let exactly one of concurrent status changes from the same status win', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const id = await createProject(app, manager);
    const results = await Promise.all(Array.from({ length: 8 }, () => sendProjectEvent(app, manager, id, 'project.startSetup')));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, ...Array(7).fill(409)]);
    const history = (await call(app, manager, 'GET', `/api/v1/project/${id}/history`, { project: id })).json() as { data: Json[]; totalCount: number };
    expect(history.data.map((h) => h.event)).toEqual(['project.startSetup', 'project.create']);
    expect(history.totalCount).toBe(2);
  });

  it('should refuse activation until an item type and a category exist, naming them', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const id = await createProject(app, manager);
    await sendProjectEvent(app, manager, id, 'project.startSetup');
    const refused = await sendProjectEvent(app, manager, id, 'project.activate');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().messages).toEqual(['The project cannot go Active yet: it needs an item type and a category.']);
    await call(app, manager, 'POST', '/api/v1/itemtype', {
      project: id,
      body: { name: 'MCQ', kind: 'singleChoice', marking: { correct: 1, wrong: 0, unanswered: 0 } },
    });
    const half = await sendProjectEvent(app, manager, id, 'project.activate');
    expect(half.json().messages).toEqual(['The project cannot go Active yet: it needs a category.']);
    await call(app, manager, 'POST', '/api/v1/category', { project: id, body: { name: 'Mathematics' } });
    expect((await sendProjectEvent(app, manager, id, 'project.activate')).json()).toMatchObject({ fromStatus: 'Setup', toStatus: 'Active' });
    const detail = (await call(app, manager, 'GET', `/api/v1/project/${id}`, { project: id })).json() as Json;
    expect(detail.status).toBe('Active');
  });

  it('should keep a Closed project read-only and let only tenant managers archive', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const staffAdmin = await staffUser(app);
    const id = await createProject(app, manager);
    await grant(app, manager, id, staffAdmin, 'ProjectAdmin');
    await activateProject(app, manager, id);
    expect((await sendProjectEvent(app, staffAdmin, id, 'project.close')).statusCode).toBe(200);
    const edit = await call(app, staffAdmin, 'PUT', `/api/v1/project/${id}`, { project: id, body: { name: 'x', version: 1 } });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().messages).toEqual(['A project in status Closed cannot be edited.']);
    const addType = await call(app, manager, 'POST', '/api/v1/itemtype', {
      project: id,
      body: { name: 'TF', kind: 'trueFalse', marking: { correct: 1, wrong: 0, unanswered: 0 } },
    });
    expect(addType.statusCode).toBe(409);
    const archiveByStaff = await sendProjectEvent(app, staffAdmin, id, 'project.archive');
    expect(archiveByStaff.statusCode).toBe(403);
    expect(archiveByStaff.json().messages).toEqual(['You may not archive this project.']);
    expect((await sendProjectEvent(app, manager, id, 'project.archive')).statusCode).toBe(200);
    // Archived projects leave the team's view; the manager still reaches it to restore.
    expect((await call(app, staffAdmin, 'GET', `/api/v1/project/${id}`, { project: id })).statusCode).toBe(404);
    expect((await sendProjectEvent(app, manager, id, 'project.restore')).json().toStatus).toBe('Closed');
  });

  it('should run an exam only in an Active project and let a moderator publish results', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const moderator = await staffUser(app);
    const id = await createProject(app, manager);
    const examId = await createExam(app, manager, id, {
      passRules: { passPercent: 35 },
      gradeBands: [
        { grade: 'A1', minPercent: 91 },
        { grade: 'A2', minPercent: 81 },
      ],
    });
    await grant(app, manager, id, moderator, 'Moderator', examId);
    const early = await sendExamEvent(app, manager, id, examId, 'exam.schedule');
    expect(early.statusCode).toBe(409);
    expect(early.json().messages).toEqual(['The exam cannot be scheduled while its project is not Active.']);
    await activateProject(app, manager, id);
    for (const event of ['exam.schedule', 'exam.start', 'exam.end']) expect((await sendExamEvent(app, manager, id, examId, event)).statusCode).toBe(200);
    const published = await sendExamEvent(app, moderator, id, examId, 'exam.publishResults');
    expect(published.json()).toMatchObject({ fromStatus: 'Evaluation', toStatus: 'ResultsPublished' });
    const closeByModerator = await sendExamEvent(app, moderator, id, examId, 'exam.close');
    expect(closeByModerator.statusCode).toBe(403);
    expect(closeByModerator.json().messages).toEqual(['You may not close this exam.']);
    const noReason = await sendExamEvent(app, moderator, id, examId, 'exam.withdrawResults');
    expect(noReason.statusCode).toBe(400);
    expect((await sendExamEvent(app, moderator, id, examId, 'exam.withdrawResults', { reason: 'Key error in Q14' })).statusCode).toBe(200);
    const history = (await call(app, moderator, 'GET', `/api/v1/exam/${examId}/history`, { project: id })).json() as { data: Json[] };
    expect(history.data[0]).toMatchObject({
      event: 'exam.withdrawResults',
      fromStatus: 'ResultsPublished',
      toStatus: 'Evaluation',
      reason: 'Key error in Q14',
      by: { userId: moderator.id },
    });
    const frozen = await call(app, manager, 'PUT', `/api/v1/exam/${examId}`, { project: id, body: { name: 'x', version: 1 } });
    expect(frozen.statusCode).toBe(409);
  });

  it('should refuse grade bands that do not go down', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const id = await createProject(app, manager);
    const res = await call(app, manager, 'POST', '/api/v1/exam', {
      project: id,
      body: {
        code: uniqueCode('E'),
        name: 'Maths',
        gradeBands: [
          { grade: 'B', minPercent: 60 },
          { grade: 'A', minPercent: 80 },
        ],
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'gradeBands[1].minPercent': ['Grade bands go from the highest down: each minPercent must be below the previous one.'],
    });
  });

  it('should answer my permissions on an exam from the ExamId header, project-wide and exam grants together', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const staff = await staffUser(app);
    const id = await createProject(app, manager);
    const examId = await createExam(app, manager, id);
    const otherExam = await createExam(app, manager, id);
    await grant(app, manager, id, staff, 'ItemAuthor');
    await grant(app, manager, id, staff, 'Invigilator', examId);
    const mine = await call(app, staff, 'GET', '/api/v1/exam/mypermissions', { exam: `${examId}&7` });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({ examId, projectId: id, paperId: 7, permissions: ['ItemAuthor', 'Invigilator'], tenantManager: false, actions: [] });
    const other = (await call(app, staff, 'GET', '/api/v1/exam/mypermissions', { exam: otherExam })).json() as Json;
    expect(other.permissions).toEqual(['ItemAuthor']);
    const asManager = (await call(app, manager, 'GET', '/api/v1/exam/mypermissions', { exam: examId })).json() as Json;
    expect(asManager).toMatchObject({ tenantManager: true, actions: ['exam.schedule', 'exam.edit'] });
    expect(asManager.permissions).toHaveLength(8);
  });

  it('should refuse grants to users who cannot work on projects, twice the same grant, and exams of other projects', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const candidate = await createSignedInUser(app, { roles: ['Candidate'], firstName: 'Kiran', lastName: 'Rao' });
    const staff = await staffUser(app, { firstName: 'Leela', lastName: 'Nair' });
    const id = await createProject(app, manager);
    const other = await createProject(app, manager);
    const otherExam = await createExam(app, manager, other);
    const toCandidate = await call(app, manager, 'POST', '/api/v1/examgrant', { project: id, body: { userId: candidate.id, permission: 'ItemAuthor' } });
    expect(toCandidate.statusCode).toBe(400);
    expect(toCandidate.json().errors.userId).toEqual([
      'Kiran Rao has no role that works on projects: give them the ExamStaff role (or another with Projects.View) first.',
    ]);
    await grant(app, manager, id, staff, 'ItemReviewer');
    const twice = await call(app, manager, 'POST', '/api/v1/examgrant', { project: id, body: { userId: staff.id, permission: 'ItemReviewer' } });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().messages).toEqual(['Leela Nair already holds ItemReviewer on this project.']);
    const foreignExam = await call(app, manager, 'POST', '/api/v1/examgrant', {
      project: id,
      body: { userId: staff.id, permission: 'Evaluator', examId: otherExam },
    });
    expect(foreignExam.statusCode).toBe(404);
    const reviewerGrants = await call(app, staff, 'POST', '/api/v1/examgrant', { project: id, body: { userId: staff.id, permission: 'ProjectAdmin' } });
    expect(reviewerGrants.statusCode).toBe(403);
  });

  it('should withdraw a grant, after which the project is out of reach', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const staff = await staffUser(app);
    const id = await createProject(app, manager);
    const grantId = await grant(app, manager, id, staff, 'PaperSetter');
    expect((await call(app, staff, 'GET', `/api/v1/project/${id}`, { project: id })).json().myPermissions).toEqual(['PaperSetter']);
    expect((await call(app, manager, 'DELETE', `/api/v1/examgrant/${grantId}`, { project: id })).json()).toEqual({ deleted: true });
    expect((await call(app, staff, 'GET', `/api/v1/project/${id}`, { project: id })).statusCode).toBe(404);
    expect((await call(app, manager, 'DELETE', `/api/v1/examgrant/${grantId}`, { project: id })).statusCode).toBe(404);
  });

  it('should refuse a category move that makes a cycle and a delete of a category in use, with the reason', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const id = await createProject(app, manager);
    const add = async (name: string, parentId: number | null = null) =>
      (await call(app, manager, 'POST', '/api/v1/category', { project: id, body: { name, parentId } })).json() as Json;
    const maths = await add('Mathematics');
    const algebra = await add('Algebra', maths.categoryId);
    const linear = await add('Linear equations', algebra.categoryId);
    const science = await add('Science');
    const cycle = await call(app, manager, 'POST', `/api/v1/category/${maths.categoryId}/move`, {
      project: id,
      body: { parentId: linear.categoryId, sortOrder: 0, version: 1 },
    });
    expect(cycle.statusCode).toBe(409);
    expect(cycle.json().messages).toEqual(['Moving "Mathematics" under "Linear equations" would make a cycle: "Linear equations" is inside "Mathematics".']);
    const self = await call(app, manager, 'POST', `/api/v1/category/${maths.categoryId}/move`, {
      project: id,
      body: { parentId: maths.categoryId, sortOrder: 0, version: 1 },
    });
    expect(self.json().messages).toEqual(['"Mathematics" cannot be moved under itself.']);
    const move = await call(app, manager, 'POST', `/api/v1/category/${algebra.categoryId}/move`, {
      project: id,
      body: { parentId: science.categoryId, sortOrder: 0, version: 1 },
    });
    expect(move.statusCode).toBe(200);
    expect(move.json()).toMatchObject({ parentId: science.categoryId, version: 2 });
    const inUse = await call(app, manager, 'DELETE', `/api/v1/category/${algebra.categoryId}`, { project: id });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().messages).toEqual(['The category "Algebra" is in use (1 subcategory): retire it instead.']);
    const retireParent = await call(app, manager, 'PUT', `/api/v1/category/${algebra.categoryId}`, { project: id, body: { isRetired: true, version: 2 } });
    expect(retireParent.json().messages).toEqual(['Retire the subcategories of "Algebra" first: Linear equations.']);
    expect((await call(app, manager, 'DELETE', `/api/v1/category/${linear.categoryId}`, { project: id })).json()).toEqual({ deleted: true });
    const tree = (await call(app, manager, 'GET', '/api/v1/category', { project: id })).json() as Json[];
    expect(tree.map((c) => c.name)).toEqual(['Mathematics', 'Science', 'Algebra']);
  });

  it('should refuse item type settings that do not apply to the kind, and marks for a wrong essay', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const id = await createProject(app, manager);
    const res = await call(app, manager, 'POST', '/api/v1/itemtype', {
      project: id,
      body: { name: 'Essay', kind: 'essay', settings: { shuffle: true }, marking: { correct: 5, wrong: -1, unanswered: 0 } },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({
      'settings.shuffle': ['shuffle does not apply to essay (it takes wordLimit).'],
      'marking.wrong': ['An essay has no marks for a wrong answer: use 0.'],
    });
    const ok = await call(app, manager, 'POST', '/api/v1/itemtype', {
      project: id,
      body: { name: 'Single correct (+4/−1)', kind: 'singleChoice', settings: { shuffle: true }, marking: { correct: 4, wrong: -1, unanswered: 0 } },
    });
    expect(ok.statusCode).toBe(201);
    const retire = await call(app, manager, 'PUT', `/api/v1/itemtype/${ok.json().itemTypeId}`, { project: id, body: { isActive: false, version: 1 } });
    expect(retire.json()).toMatchObject({ isActive: false, version: 2 });
  });

  it('should validate flows and say where records of a removed stage go', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const id = await createProject(app, manager);
    const bad = await call(app, manager, 'POST', '/api/v1/flow', {
      project: id,
      body: {
        name: 'Broken',
        recordKind: 'item',
        definition: { stages: [{ id: 'Draft', name: 'x', permission: 'ItemReviewer' }], submitPermission: 'ItemAuthor', retirePermission: 'ProjectAdmin' },
      },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.definition).toEqual(['stages[0].id "Draft" is reserved (Draft, Approved and Retired are fixed states).']);
    const stages = [
      { id: 'review', name: 'Peer review', permission: 'ItemReviewer' },
      { id: 'expert', name: 'Subject expert', permission: 'Moderator' },
      { id: 'approval', name: 'Approval', permission: 'ProjectAdmin' },
    ];
    const created = await call(app, manager, 'POST', '/api/v1/flow', {
      project: id,
      body: { name: 'Items', recordKind: 'item', definition: { stages, submitPermission: 'ItemAuthor', retirePermission: 'ProjectAdmin' } },
    });
    expect(created.statusCode).toBe(201);
    const edited = await call(app, manager, 'PUT', `/api/v1/flow/${created.json().flowId}`, {
      project: id,
      body: { version: 1, definition: { stages: [stages[0], stages[2]], submitPermission: 'ItemAuthor', retirePermission: 'ProjectAdmin' } },
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      version: 2,
      states: ['Draft', 'review', 'approval', 'Approved', 'Retired'],
      stageMoves: [{ from: 'expert', to: 'review' }],
    });
  });

  it('should save a project as a template and start another project from it', async () => {
    const { app } = get();
    const manager = await managerUser(app);
    const templates = (await call(app, manager, 'GET', '/api/v1/projecttemplate')).json() as Json[];
    const cbt = templates.find((t) => t.name.startsWith('Entrance test'))!;
    const id = await createProject(app, manager, { templateId: cbt.templateId });
    const name = `Our entrance test ${uniqueCode()}`;
    const saved = await call(app, manager, 'POST', `/api/v1/project/${id}/savetemplate`, { project: id, body: { name } });
    expect(saved.statusCode).toBe(201);
    expect(saved.json().config.itemTypes.map((t: Json) => t.marking)).toEqual([
      { correct: 4, wrong: -1, unanswered: 0 },
      { correct: 4, wrong: -2, unanswered: 0 },
      { correct: 4, wrong: 0, unanswered: 0 },
    ]);
    const second = await createProject(app, manager, { templateId: saved.json().templateId });
    const detail = (await call(app, manager, 'GET', `/api/v1/project/${second}`, { project: second })).json() as Json;
    expect(detail.setup).toMatchObject({ itemTypes: 3, categories: 9, flows: 2 });
    expect((await call(app, manager, 'DELETE', `/api/v1/projecttemplate/${cbt.templateId}`)).statusCode).toBe(409);
    expect((await call(app, manager, 'DELETE', `/api/v1/projecttemplate/${saved.json().templateId}`)).json()).toEqual({ deleted: true });
  });

  it('should list the flows of every project in scope for testers on /machines, each compilable', async () => {
    const { app } = get();
    const { compileFlow } = await import('#machines/exams/review-flow.machine.ts');
    const manager = await managerUser(app);
    const tester = await createSignedInUser(app, { roles: ['Tester'] });
    const templates = (await call(app, manager, 'GET', '/api/v1/projecttemplate')).json() as Json[];
    const id = await createProject(app, manager, { templateId: templates.find((t) => t.name.startsWith('Entrance'))!.templateId });
    const res = await call(app, tester, 'GET', '/api/machines/flows');
    expect(res.statusCode).toBe(200);
    const mine = (res.json() as Json[]).filter((f) => f.projectId === id);
    expect(mine.map((f) => [f.name, f.recordKind])).toEqual([
      ['Item review (two reviewers)', 'item'],
      ['Paper moderation', 'paper'],
    ]);
    for (const flow of mine) expect(compileFlow(flow.definition, flow.flowId).id).toBe(flow.machineId);
    expect((await call(app, manager, 'GET', '/api/machines/flows')).statusCode).toBe(403);
  });

  it('should describe every exam workspace route in the OpenAPI document', async () => {
    const { app } = get();
    const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    for (const path of [
      '/api/v1/project/search',
      '/api/v1/project/{id}/status',
      '/api/v1/exam/mypermissions',
      '/api/v1/examgrant',
      '/api/v1/category/{id}/move',
      '/api/v1/flow/{id}',
      '/api/v1/itemtype',
    ]) {
      expect(Object.keys(doc.paths), path).toContain(path);
    }
  });
});
