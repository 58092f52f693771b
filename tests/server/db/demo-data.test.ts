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
    expect(again).toMatchObject({ created: false });
    expect(demoDataSummary(again)).toBe(`Demo data already present (project ${DEMO_PROJECT_CODE}); nothing changed.\n`);

    const userId = async (key: string) => (await db.query<{ id: string }>(`select id from users where email = $1`, [`${key}@${DEMO_EMAIL_DOMAIN}`])).rows[0].id;
    const meera = await signInDirect(app, { id: await userId('meera.iyer'), email: '', password: '', firstName: 'Meera', lastName: 'Iyer', userName: '', roles: ['ExamManager'] });
    const fatima = await signInDirect(app, { id: await userId('fatima.khan'), email: '', password: '', firstName: 'Fatima', lastName: 'Khan', userName: '', roles: ['ExamStaff'] });

    const projects = (await call(app, meera, 'POST', '/api/v1/project/search', { body: { orderBy: ['code'] } })).json();
    expect(projects.data.map((p: { code: string; status: string }) => [p.code, p.status])).toEqual([
      ['BOARD10-2027', 'Active'],
      ['JEE-MOCK-2027', 'Setup'],
    ]);
    const board = projects.data[0].projectId as number;
    const detail = (await call(app, meera, 'GET', `/api/v1/project/${board}`, { project: board })).json();
    expect(detail.setup).toEqual({ itemTypes: 6, categories: 23, flows: 2, team: 8, exams: 2 });
    const categories = (await call(app, meera, 'GET', '/api/v1/category', { project: board })).json() as Array<{ name: string; parentId: number | null }>;
    expect(categories.filter((c) => c.parentId === null).map((c) => c.name)).toEqual(['Mathematics', 'Science']);

    // The moderator sees only the project and exam granted, and may act on it as the machine allows.
    const fatimaProjects = (await call(app, fatima, 'POST', '/api/v1/project/search', { body: {} })).json();
    expect(fatimaProjects.data.map((p: { code: string }) => p.code)).toEqual(['BOARD10-2027']);
    const exams = (await call(app, fatima, 'POST', '/api/v1/exam/search', { project: board, body: {} })).json();
    expect(exams.data.map((e: { code: string; status: string }) => [e.code, e.status])).toEqual([['MATH-10', 'Scheduled']]);
    const mine = (await call(app, fatima, 'GET', '/api/v1/exam/mypermissions', { exam: exams.data[0].examId })).json();
    expect(mine.permissions).toEqual(['Moderator']);

    // The demo password signs in for real.
    const signIn = await app.inject({ method: 'POST', url: '/api/tokens', headers: { tenant: 'root' }, payload: { email: `vikram.rao@${DEMO_EMAIL_DOMAIN}`, password: 'demo pass phrase 2027' } });
    expect(signIn.statusCode).toBeLessThan(300);
  });
});
