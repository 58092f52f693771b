import { expect, it } from 'vitest';
import { DEMO_EMAIL_DOMAIN, DEMO_PROJECT_CODE, demoDataSummary, seedDemoData } from '#server/db/demo-data.ts';
import { call } from '#tests/server/exams/workspace-kit.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { signInDirect } from '#tests/setup/test-users.ts';

describeEachDatabase('demo data', (get) => {
  it('should create the board project with its team and exams once, and let its people work in it', async () => {
    const { app, db } = get();
    const first = await seedDemoData(db, { password: 'demo pass phrase 2027' });
    expect(first.created).toBe(true);
    expect(demoDataSummary(first)).toContain('meera.iyer@demo.exam-portal.local');
    const again = await seedDemoData(db);
    // Issue 21: the demo candidate has notifications (the agent's chat replies among them) and sign-ins on readable devices.
    const ashaNotices = await db.query<{ kind: string }>(
      `select n.kind from notifications n join users u on u.id = n.user_id where u.email = $1 order by n.created_at`,
      [`asha.menon@${DEMO_EMAIL_DOMAIN}`],
    );
    expect(ashaNotices.rows.map((r) => r.kind)).toEqual(
      expect.arrayContaining(['registration.approved', 'admitcard.issued', 'results.published', 'ticket.reply']),
    );
    const failed = await db.query<{ n: number }>(
      `select count(*)::int as n from login_history h join users u on u.id = h.user_id where u.email = $1 and h.event = 'loginFailed' and h.user_agent is not null`,
      [`asha.menon@${DEMO_EMAIL_DOMAIN}`],
    );
    expect(failed.rows[0].n).toBe(1);
    expect(again).toMatchObject({ created: false });
    expect(demoDataSummary(again)).toBe(`Demo data already present (project ${DEMO_PROJECT_CODE}); nothing changed.\n`);

    const userId = async (key: string) => (await db.query<{ id: string }>(`select id from users where email = $1`, [`${key}@${DEMO_EMAIL_DOMAIN}`])).rows[0].id;
    const meera = await signInDirect(app, {
      id: await userId('meera.iyer'),
      email: '',
      password: '',
      firstName: 'Meera',
      lastName: 'Iyer',
      userName: '',
      roles: ['ExamManager'],
    });
    const fatima = await signInDirect(app, {
      id: await userId('fatima.khan'),
      email: '',
      password: '',
      firstName: 'Fatima',
      lastName: 'Khan',
      userName: '',
      roles: ['ExamStaff'],
    });

    const projects = (await call(app, meera, 'POST', '/api/v1/project/search', { body: { orderBy: ['code'] } })).json();
    expect(projects.data.map((p: { code: string; status: string }) => [p.code, p.status])).toEqual([
      ['BOARD10-2027', 'Active'],
      ['JEE-MOCK-2027', 'Setup'],
      ['SCHOLAR-2027', 'Draft'],
    ]);
    // The archived one is there for exam managers who ask for it, and can be restored.
    const withArchived = (await call(app, meera, 'POST', '/api/v1/project/search', { body: { orderBy: ['code'], includeArchived: true } })).json();
    const olympiad = withArchived.data.find((p: { code: string }) => p.code === 'OLYMPIAD-2026');
    expect(olympiad).toMatchObject({ status: 'Archived' });
    const restored = await call(app, meera, 'POST', `/api/v1/project/${olympiad.projectId}/status`, {
      project: olympiad.projectId,
      body: { event: 'project.restore', version: olympiad.version },
    });
    expect(restored.json()).toMatchObject({ fromStatus: 'Archived', toStatus: 'Closed' });
    // Someone on no team reaches no project.
    const anil = await signInDirect(app, {
      id: await userId('anil.kumar'),
      email: '',
      password: '',
      firstName: 'Anil',
      lastName: 'Kumar',
      userName: '',
      roles: ['ExamStaff'],
    });
    expect((await call(app, anil, 'POST', '/api/v1/project/search', { body: {} })).json()).toMatchObject({ data: [], totalCount: 0 });
    expect((await call(app, anil, 'GET', `/api/v1/project/${olympiad.projectId}`, { project: olympiad.projectId })).statusCode).toBe(404);
    const board = projects.data[0].projectId as number;
    const detail = (await call(app, meera, 'GET', `/api/v1/project/${board}`, { project: board })).json();
    expect(detail.setup).toEqual({ itemTypes: 6, categories: 23, flows: 2, team: 8, exams: 3 });
    // The exam screen and the histories have something to show (decision 0169).
    const english = (await call(app, meera, 'POST', '/api/v1/exam/search', { project: board, body: { keyword: 'ENG-10' } })).json().data[0];
    expect([english.status, english.actions]).toEqual(['Evaluation', ['exam.publishResults']]);
    const examHistory = (await call(app, meera, 'GET', `/api/v1/exam/${english.examId}/history`, { project: board })).json();
    expect(examHistory.totalCount).toBe(7);
    expect(examHistory.data[0]).toMatchObject({
      event: 'exam.withdrawResults',
      reason: 'Answer key error in Q14; re-marking section B',
      by: { name: 'Arjun Shah' },
    });
    expect(examHistory.data.find((h: { event: string }) => h.event === 'exam.edit').fields).toEqual(['passRules']);
    const boardHistory = (await call(app, meera, 'GET', `/api/v1/project/${board}/history`, { project: board })).json();
    expect(boardHistory.data[0]).toMatchObject({ event: 'project.reopen', reason: 'Revised syllabus published; work resumes' });
    const categories = (await call(app, meera, 'GET', '/api/v1/category', { project: board })).json() as Array<{ name: string; parentId: number | null }>;
    expect(categories.filter((c) => c.parentId === null).map((c) => c.name)).toEqual(['Mathematics', 'Science']);

    // The moderator sees only the project and exam granted, and may act on it as the machine allows.
    const fatimaProjects = (await call(app, fatima, 'POST', '/api/v1/project/search', { body: {} })).json();
    expect(fatimaProjects.data.map((p: { code: string }) => p.code)).toEqual(['BOARD10-2027']);
    const exams = (await call(app, fatima, 'POST', '/api/v1/exam/search', { project: board, body: {} })).json();
    expect(exams.data.map((e: { code: string; status: string }) => [e.code, e.status])).toEqual([['MATH-10', 'Scheduled']]);
    const mine = (await call(app, fatima, 'GET', '/api/v1/exam/mypermissions', { exam: exams.data[0].examId })).json();
    expect(mine.permissions).toEqual(['Moderator']);

    // The item bank: every kind, every point of the flow, a version 2 draft, a near-duplicate.
    const vikram = await signInDirect(app, {
      id: await userId('vikram.rao'),
      email: '',
      password: '',
      firstName: 'Vikram',
      lastName: 'Rao',
      userName: '',
      roles: ['ExamStaff'],
    });
    const items = (await call(app, vikram, 'POST', '/api/v1/item/search', { project: board, body: { pageSize: 50, orderBy: ['code'] } })).json();
    // Twelve authoring items, the twelve approved items the demo paper is built from (DEMO-MATH-…) and the written paper's essay (issue 20).
    expect(items.totalCount).toBe(25);
    const paperItems = items.data.filter((i: { code: string }) => i.code.startsWith('DEMO-MATH-'));
    expect(paperItems.map((i: { status: string }) => i.status)).toEqual(Array(12).fill('Approved'));
    // The bank's search finds them by code and by the words of their stems, in any of their languages.
    const found = async (keyword: string) =>
      ((await call(app, vikram, 'POST', '/api/v1/item/search', { project: board, body: { keyword, pageSize: 50 } })).json() as { totalCount: number })
        .totalCount;
    expect(await found('DEMO-MATH-00')).toBe(9);
    expect(await found('क्षेत्रफलों')).toBe(1);
    expect(await found('ત્રિકોણ')).toBeGreaterThan(0);
    const bankItems = items.data.filter((i: { code: string }) => !i.code.startsWith('DEMO-'));
    expect(new Set(bankItems.map((i: { kind: string }) => i.kind)).size).toBe(9);
    const byCode = Object.fromEntries(bankItems.map((i: { code: string }) => [i.code, i])) as Record<
      string,
      { itemId: number; status: string; versionNumber: number; missingLanguages: string[]; duplicate: { code: string } | null }
    >;
    expect(
      Object.values(byCode)
        .map((i) => i.status)
        .sort(),
    ).toEqual(['Approved', 'Approved', 'Approved', 'Approved', 'Draft', 'Draft', 'Draft', 'Draft', 'Retired', 'approval', 'review', 'review']);
    expect(byCode['MATH-AP-001']).toMatchObject({ status: 'Draft', versionNumber: 2 });
    expect(byCode['SCI-LIGHT-001'].missingLanguages).toEqual(['hi']);
    expect(byCode['SCI-ELEC-002'].duplicate?.code).toBe('SCI-ELEC-001');
    const inReview = (await call(app, vikram, 'GET', `/api/v1/item/${byCode['SCI-CHEM-001'].itemId}`, { project: board })).json();
    expect(inReview.actions).toEqual(['approve', 'requestChanges', 'comment']);
    // The locked demo paper: four equivalent sets that regenerate byte for byte from their seeds.
    const examId = exams.data[0].examId as number;
    const papers = (await call(app, fatima, 'GET', '/api/v1/paper', { exam: examId })).json() as Array<{
      paperId: number;
      code: string;
      status: string;
      setCount: number;
      actions: string[];
    }>;
    expect(papers.map((p) => [p.code, p.status, p.setCount, p.actions])).toEqual([
      ['MATH-UT-1W', 'Locked', 1, ['paper.generateSets', 'paper.publish']],
      ['MATH-UT-2', 'Draft', 0, []],
      ['MATH-UT-1', 'Locked', 4, ['paper.generateSets', 'paper.publish']],
    ]);
    // The draft for the builder: its sections offer 8 of the 10 marks it declares.
    const draft = (await call(app, fatima, 'GET', `/api/v1/paper/${papers.find((p) => p.code === 'MATH-UT-2')!.paperId}/blueprint`, { exam: examId })).json();
    expect([draft.computedMarks, draft.warnings.map((w: { code: string }) => w.code)]).toEqual([8, ['totalMismatch']]);
    const paperId = papers.find((p) => p.code === 'MATH-UT-1')!.paperId;
    const blueprint = (await call(app, fatima, 'GET', `/api/v1/paper/${paperId}/blueprint`, { exam: examId })).json();
    expect([blueprint.computedMarks, blueprint.blocking, blueprint.languages.map((l: { language: string }) => l.language)]).toEqual([
      10,
      0,
      ['en', 'hi', 'gu'],
    ]);
    const sets = (await call(app, fatima, 'GET', `/api/v1/paper/${paperId}/sets`, { exam: examId })).json();
    expect(sets.equivalence.equivalent).toBe(true);
    const verify = (await call(app, fatima, 'GET', `/api/v1/paper/${paperId}/sets/C/verify`, { exam: `${examId}&${paperId}` })).json();
    expect(verify.identical).toBe(true);

    // Issue 18: the March 2027 season is open, its schedule and centers are set, and the
    // candidates' registrations sit at three points of the registration machine.
    const seasons = (await call(app, meera, 'POST', '/api/v1/season/search', { project: board, body: {} })).json();
    expect(
      seasons.data.map((x: { code: string; status: string; paperCount: number; centerCount: number; seats: number; allocated: number }) => [
        x.code,
        x.status,
        x.paperCount,
        x.centerCount,
        x.seats,
        x.allocated,
      ]),
    ).toEqual([
      ['MAR27', 'RegistrationOpen', 1, 4, 550, 2],
      // Issue 19: paper mode's sitting today (two admit cards, attendance not marked yet) …
      ['PAPR', 'InProgress', 1, 1, 60, 2],
      // … and the online mock test Kavya Shah can sit in the browser.
      ['MOCK', 'InProgress', 1, 1, 60, 1],
      // Issue 20: the held unit test whose results are published (and essays wait for marks).
      ['UT1', 'Completed', 2, 1, 60, 3],
      ['NOV26', 'Completed', 1, 1, 60, 2],
    ]);
    const seasonId = seasons.data.find((x: { code: string }) => x.code === 'MAR27').seasonId as number;
    const schedule = (await call(app, meera, 'GET', `/api/v1/season/${seasonId}/schedule`, { project: board })).json();
    expect(schedule.papers.map((x: { paperCode: string; startsAt: string; liveSets: string[] }) => [x.paperCode, x.startsAt, x.liveSets])).toEqual([
      ['MATH-UT-1', '10:00', ['A', 'B', 'C']],
    ]);
    const centers = (await call(app, meera, 'POST', '/api/v1/examcenter/search', { body: { pageSize: 20 } })).json();
    expect(centers.totalCount).toBe(6);
    const registrations = (await call(app, meera, 'POST', '/api/v1/registration/search', { project: board, body: { seasonId } })).json();
    expect(registrations.data.map((r: { status: string; rollNumber: string | null }) => [r.status, r.rollNumber])).toEqual([
      ['Submitted', null],
      ['Approved', null],
      ['Allocated', 'MAR27AHM-00100001'],
      ['AdmitCardIssued', 'MAR27AHM-00100002'],
      ['Submitted', null],
      ['Rejected', null],
    ]);
    // The section settings of the sitting, the batch that issued the admit card, and last
    // November's Completed sitting with one candidate Attended and one Absent.
    const sections = schedule.papers[0].sections as Array<{ timeLimitMinutes: number | null; note: string }>;
    expect(sections.filter((x) => x.timeLimitMinutes !== null)).toMatchObject([{ timeLimitMinutes: 15 }]);
    const batches = (await call(app, meera, 'GET', `/api/v1/season/${seasonId}/admitcards`, { project: board })).json();
    expect(batches).toMatchObject([{ state: 'finished', total: 1, issued: 1, failed: 0 }]);
    const past = (
      await call(app, meera, 'POST', '/api/v1/registration/search', {
        project: board,
        body: { seasonId: seasons.data.find((x: { code: string }) => x.code === 'NOV26').seasonId, orderBy: ['createdOn asc'] },
      })
    ).json();
    expect(past.data.map((r: { status: string; rollNumber: string }) => [r.status, r.rollNumber])).toEqual([
      ['Attended', 'NOV26AHM-00200001'],
      ['Absent', 'NOV26AHM-00200002'],
    ]);
    const neha = await signInDirect(app, {
      id: await userId('neha.joshi'),
      email: '',
      password: '',
      firstName: 'Neha',
      lastName: 'Joshi',
      userName: '',
      roles: ['Candidate'],
    });
    expect((await call(app, neha, 'GET', '/api/v1/registration/mine')).json()).toMatchObject([{ status: 'Submitted', accommodationStatus: 'requested' }]);
    expect((await call(app, neha, 'GET', '/api/v1/registration/open')).json()).toMatchObject([{ code: 'MAR27', cities: ['Ahmedabad', 'Rajkot', 'Surat'] }]);

    // Issue 19: Kavya has the mock test to sit (online, started at 00:00 today), and opening it gives her a set.
    const kavya = await signInDirect(app, {
      id: await userId('kavya.shah'),
      email: '',
      password: '',
      firstName: 'Kavya',
      lastName: 'Shah',
      userName: '',
      roles: ['Candidate'],
    });
    const sittings = (await call(app, kavya, 'GET', '/api/v1/delivery/mine')).json();
    expect(sittings).toMatchObject([{ seasonName: 'Online mock test', paperCode: 'MATH-UT-1', durationMinutes: 90, deliveryId: null }]);
    expect(Date.parse(sittings[0].startsAt)).toBeLessThanOrEqual(Date.now());
    const opened = await call(app, kavya, 'POST', '/api/v1/delivery/mine', {
      body: { registrationId: sittings[0].registrationId, seasonPaperId: sittings[0].seasonPaperId },
    });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.json()).toMatchObject({ medium: 'gu', languages: ['gu', 'en', 'hi'], timing: { status: 'Waiting', remainingMs: 90 * 60_000 } });

    // The demo password signs in for real.
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/tokens',
      headers: { tenant: 'root' },
      payload: { email: `vikram.rao@${DEMO_EMAIL_DOMAIN}`, password: 'demo pass phrase 2027' },
    });
    expect(signIn.statusCode).toBeLessThan(300);

    // The support ticket (issue 23): raised, claimed, a conversation of three people, one message
    // addressed to the agent; the candidate reads it in her own view, history included.
    const asha = await signInDirect(app, {
      id: await userId('asha.menon'),
      email: '',
      password: '',
      firstName: 'Asha',
      lastName: 'Menon',
      userName: '',
      roles: ['Candidate'],
    });
    const ashaTickets = (await call(app, asha, 'POST', '/api/v1/supportticket/searchbyuser', { body: {} })).json();
    expect(ashaTickets.data.map((t: { title: string; status: string; assigneeName: string | null }) => [t.title, t.status, t.assigneeName]).sort()).toEqual([
      ['My admit card photo is blurred', 'InProgress', 'Ravi Verma'],
      ['The mock test freezes after question 12', 'InProgress', 'Ravi Verma'],
    ]);
    const ticketId = ashaTickets.data.find((t: { title: string }) => t.title.startsWith('The mock test freezes')).ticketId as number;
    const chat = (await call(app, asha, 'POST', '/api/supportchat/chatdetails', { body: { supportTicketId: ticketId, pageNumber: 1, pageSize: 20 } })).json();
    expect(chat.data.map((m: { fromUserName: string }) => m.fromUserName).reverse()).toEqual([
      'Asha Menon',
      'Ravi Verma',
      'Asha Menon',
      'Lata Shah',
      'Asha Menon',
      'Ravi Verma',
    ]);
    expect(chat.data[1].toUserId).toBe(await userId('ravi.verma'));
    const history = (await call(app, asha, 'GET', `/api/v1/supportticket/tickethistory?ticketId=${ticketId}`)).json();
    expect(history.map((h: { event: string }) => h.event)).toEqual(['ticket.created', 'ticket.claim']);

    // Every dashboard card of the support roles has something to show (issue 21).
    const person = async (key: string, firstName: string, lastName: string, role: 'Candidate' | 'SupportAgent' | 'SupportAdmin') =>
      signInDirect(app, { id: await userId(key), email: '', password: '', firstName, lastName, userName: '', roles: [role] });
    const ashaDashboard = (await call(app, asha, 'GET', '/api/v1/dashboard/tickets/mine')).json();
    expect(ashaDashboard).toMatchObject({ openCount: 2, unreadTotal: 1 });
    expect(ashaDashboard.tickets[0]).toMatchObject({ title: 'The mock test freezes after question 12', unreadCount: 1 });
    const ravi = await person('ravi.verma', 'Ravi', 'Verma', 'SupportAgent');
    expect((await call(app, ravi, 'GET', '/api/v1/dashboard/support/queue')).json().total).toBe(5);
    expect((await call(app, ravi, 'GET', '/api/v1/dashboard/support/waiting')).json().tickets.map((t: { title: string }) => t.title)).toEqual([
      'My admit card photo is blurred',
    ]);
    expect((await call(app, ravi, 'GET', '/api/v1/dashboard/support/new')).json().tickets.map((t: { title: string }) => t.title)).toEqual([
      'The timer on the mock test looks wrong',
    ]);
    const lata = await person('lata.shah', 'Lata', 'Shah', 'SupportAdmin');
    const desk = (await call(app, lata, 'GET', '/api/v1/dashboard/support/overview')).json();
    expect(desk.groups.find((g: { name: string }) => g.name === 'Technical Support').total).toBe(6);
    expect(desk.oldestOpen).toHaveLength(3);
    const perDay = (await call(app, lata, 'GET', '/api/v1/dashboard/support/resolved?days=14')).json();
    expect(perDay.filter((d: { count: number }) => d.count > 0)).toHaveLength(3);
    const kavyaCandidate = await person('kavya.shah', 'Kavya', 'Shah', 'Candidate');
    expect((await call(app, kavyaCandidate, 'GET', '/api/v1/delivery/mine')).json().length).toBeGreaterThan(0);
    expect((await call(app, kavyaCandidate, 'GET', '/api/v1/registration/mine')).json().length).toBeGreaterThan(0);
    expect((await call(app, kavyaCandidate, 'GET', '/api/v1/dashboard/tickets/mine')).json().openCount).toBe(1);

    // The exam manager's cards of the board project (issue 21).
    const itemsCard = (await call(app, meera, 'GET', '/api/v1/dashboard/exams/items', { project: board })).json();
    const itemRows = await db.query<{ n: number }>(`select count(*)::int as n from items where project_id = $1 and status <> 'Retired'`, [board]);
    expect(itemsCard.total).toBe(itemRows.rows[0].n);
    expect(itemsCard.total).toBeGreaterThan(0);
    expect(itemsCard.languages.length).toBeGreaterThan(0);
    expect(itemsCard.languages.every((l: { count: number }) => l.count <= itemsCard.total)).toBe(true);
    const papersCard = (await call(app, meera, 'GET', '/api/v1/dashboard/exams/papers', { project: board })).json();
    expect(papersCard.byStatus.map((s: { status: string }) => s.status)).toEqual(['Draft', 'Review', 'Locked', 'Published']);
    expect(papersCard.byStatus.find((s: { status: string }) => s.status === 'Locked').count).toBeGreaterThan(0);
    const centersAnswer = await call(app, meera, 'GET', '/api/v1/dashboard/exams/centers', { project: board });
    expect(centersAnswer.statusCode, centersAnswer.body).toBe(200);
    const centersCard = centersAnswer.json();
    expect(centersCard.length).toBeGreaterThan(0);
    expect(centersCard.find((c: { registrations: number }) => c.registrations > 0)).toMatchObject({ centerName: expect.any(String) });
    for (const c of centersCard) expect(c.registrations).toBeLessThanOrEqual(c.seats);
    // The sitting under way: the mock-test delivery Kavya opened above waits for her start.
    const live = (await call(app, meera, 'GET', '/api/v1/dashboard/exams/deliveries', { project: board })).json();
    expect(live).toEqual([expect.objectContaining({ seasonName: 'Online mock test', waiting: 1, active: 0 })]);
    const adminId = (await db.query<{ id: string }>(`select id from users where tenant_id = 'root' order by created_at, id limit 1`)).rows[0].id;
    const administrator = await signInDirect(app, {
      id: adminId,
      email: '',
      password: '',
      firstName: 'Ada',
      lastName: 'Admin',
      userName: '',
      roles: ['Admin'],
    });
    expect((await call(app, administrator, 'GET', '/api/v1/dashboard/admin/jobs')).json().recent).toEqual([
      expect.objectContaining({ fileName: 'march-2027-candidates.xlsx', state: 'finished', createdCount: 6 }),
    ]);
    // A project call needs its project; another tenant's user or a candidate gets nothing.
    expect((await call(app, meera, 'GET', '/api/v1/dashboard/exams/items')).statusCode).toBe(400);
    expect((await call(app, kavyaCandidate, 'GET', '/api/v1/dashboard/exams/items', { project: board })).statusCode).toBe(403);
    // Results (issue 20): Kavya's two published results with answer sheets; the essays of Isha and
    // Aarav wait in Rohan's anonymised queue for the MATH-10 exam.
    const myResults = (await call(app, kavya, 'GET', '/api/v1/result/mine')).json() as Array<{
      resultId: number;
      paperCode: string;
      status: string;
      total: number;
    }>;
    expect(myResults.map((r) => [r.paperCode, r.status]).sort()).toEqual([
      ['MATH-UT-1', 'Published'],
      ['MATH-UT-1W', 'Published'],
    ]);
    const writtenResult = (await call(app, kavya, 'GET', `/api/v1/result/mine/${myResults.find((r) => r.paperCode === 'MATH-UT-1W')!.resultId}`)).json();
    expect(writtenResult.answerSheet.find((i: { kind: string }) => i.kind === 'essay')).toMatchObject({ marks: 7, maxMarks: 10 });
    expect(writtenResult).toMatchObject({ total: 9, maxTotal: 12, reevaluation: { canRequest: true } });
    const rohan = await signInDirect(app, {
      id: await userId('rohan.das'),
      email: '',
      password: '',
      firstName: 'Rohan',
      lastName: 'Das',
      userName: '',
      roles: ['ExamStaff'],
    });
    const mathExam = (await db.query<{ id: number }>(`select id::int as id from exams where code = 'MATH-10' and project_id = $1`, [board])).rows[0].id;
    const queue = (await call(app, rohan, 'GET', `/api/v1/marking/queue?examId=${mathExam}`, { project: board })).json() as Array<{
      answer: string;
      round: number;
    }>;
    expect(queue.filter((t) => t.round === 1)).toHaveLength(2);
    expect(JSON.stringify(queue)).not.toMatch(/Isha|Aarav|UT1AHM/);
    // Isha's essay (and only hers) is double-marked blind; Vikram Rao is the second evaluator.
    expect(queue.filter((t) => t.round === 2).map((t) => t.answer)).toEqual([expect.stringContaining('Join OA, OB and OP')]);
    const vikramEvaluator = await signInDirect(app, {
      id: await userId('vikram.rao'),
      email: '',
      password: '',
      firstName: 'Vikram',
      lastName: 'Rao',
      userName: '',
      roles: ['ExamStaff'],
    });
    const secondQueue = (await call(app, vikramEvaluator, 'GET', `/api/v1/marking/queue?examId=${mathExam}`, { project: board })).json() as Array<{
      round: number;
    }>;
    expect(secondQueue.map((t) => t.round).sort()).toEqual([1, 1, 2]);
  });
});
