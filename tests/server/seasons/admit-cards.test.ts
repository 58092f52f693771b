import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { ADMIT_CARD_BATCH_JOB, runAdmitCardBatch } from '#server/modules/seasons/admit-cards.ts';
import { REGISTRATION_UPLOAD_JOB, runRegistrationUpload } from '#server/modules/seasons/registrations-bulk.ts';
import { PdfPrinter } from '#server/modules/papers/paper-print.ts';
import type { Job } from '#server/lib/jobs.ts';
import { qrTextsInPdf } from '#tests/fixtures/pdf-qr.ts';
import { mailsTo } from '#tests/server/identity/identity-test-kit.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';
import { call } from '../exams/workspace-kit.ts';
import { openSeason, projectCall, seasonWorld, type SeasonWorld } from './seasons-kit.ts';

/**
 * Issue 18's remaining server behaviour (docs/decisions/0230–0234): the e-mails on approval,
 * rejection and issue in the candidate's language, the admit card PDF whose printed QR code the
 * verify route accepts, the batch job and its rate, supporting documents, bulk registration
 * with its error file, the project's roll pattern and the set-based season allocation.
 */
describeEachDatabase('admit cards, mails, documents, bulk registration', (get) => {
  let world: SeasonWorld;
  let season: Awaited<ReturnType<typeof openSeason>>;
  let exam: { code: string; name: string };
  const printer = new PdfPrinter();
  beforeAll(async () => {
    world = await seasonWorld(get().app, get().db);
    season = await openSeason(get().app, world, [3, 50]);
    const { rows } = await get().db.query<{ code: string; name: string }>(`select code, name from exams where id = $1`, [world.examId]);
    exam = rows[0];
    return () => printer.close();
  });

  const deps = () => ({ db: get().db, printer, mail: get().app.accountMail, publicUrl: 'http://exam-portal.test', pokeJobs: () => {} });
  const job = <P>(kind: string, payload: P): Job<P> => ({
    id: '00000000-0000-4000-8000-000000000000',
    tenant_id: null,
    kind,
    payload,
    attempts: 1,
    created_by: null,
  });
  const candidate = () => createSignedInUser(get().app, { roles: ['Candidate'] });
  /** The notification center's rows of a user (issue 21), newest first. */
  const notificationsOf = async (userId: string) =>
    (
      await get().db.query<{ kind: string; titleKey: string; params: Record<string, unknown>; link: string | null }>(
        `select kind, title_key as "titleKey", params, link from notifications where user_id = $1 order by id desc`,
        [userId],
      )
    ).rows;
  const admin = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => projectCall(get().app, world, world.manager, method, url, body);
  const register = async (user: TestUser, over: Record<string, unknown> = {}) => {
    const res = await call(get().app, user, 'POST', '/api/v1/registration', {
      body: { seasonId: season.seasonId, examId: world.examId, seasonPaperIds: [season.seasonPaperId], medium: 'hi', preferredCity: 'Ahmedabad', ...over },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { registrationId: number }).registrationId;
  };

  it('should mail the candidate on approval and rejection in their medium’s language, with the reason', async () => {
    const user = await candidate();
    const id = await register(user);
    expect((await admin('POST', `/api/v1/registration/${id}/status`, { event: 'registration.approve' })).statusCode).toBe(200);
    const [approved] = await mailsTo(get().app, user.email);
    expect(approved.subject).toBe(`${exam.name} के लिए आपका पंजीकरण स्वीकृत हो गया है`);
    expect(approved.html).toContain('<html lang="hi"');
    expect(approved.text).toContain('http://exam-portal.test/registrations/mine');
    // Out of the way of the season-wide allocation below.
    expect((await admin('POST', `/api/v1/registration/${id}/status`, { event: 'registration.cancel', reason: 'Withdrew' })).statusCode).toBe(200);

    const other = await candidate();
    const rejected = await register(other, { medium: 'en' });
    await admin('POST', `/api/v1/registration/${rejected}/status`, { event: 'registration.reject', reason: 'The fee was not paid.' });
    const [mail] = await mailsTo(get().app, other.email);
    expect(mail.subject).toBe(`Your registration for ${exam.name} was not accepted`);
    expect(mail.text).toContain('Reason: The fee was not paid.');
  });

  it('should print an admit card whose QR code the verify route accepts, issue a season in a batch with its rate, and never over-fill', async () => {
    const { app } = get();
    const users = await Promise.all([candidate(), candidate(), candidate(), candidate()]);
    const ids = [];
    for (const user of users) ids.push(await register(user, { medium: 'hi' }));
    for (const id of ids) await admin('POST', `/api/v1/registration/${id}/status`, { event: 'registration.approve' });
    const allocation = await admin('POST', `/api/v1/season/${season.seasonId}/allocate`);
    expect(allocation.statusCode, allocation.body).toBe(200);
    // Ahmedabad has 3 seats: three go there, the fourth to Surat (most free seats).
    const records = await Promise.all(
      ids.map(async (id) => (await admin('GET', `/api/v1/registration/${id}`)).json() as { status: string; center: { city: string } }),
    );
    expect(records.map((r) => r.status)).toEqual(['Allocated', 'Allocated', 'Allocated', 'Allocated']);
    expect(records.map((r) => r.center.city).sort()).toEqual(['Ahmedabad', 'Ahmedabad', 'Ahmedabad', 'Surat']);
    const centers = (await admin('GET', `/api/v1/season/${season.seasonId}/centers`)).json() as Array<{ seats: number; allocated: number }>;
    for (const c of centers) expect(c.allocated).toBeLessThanOrEqual(c.seats);

    const queued = await admin('POST', `/api/v1/season/${season.seasonId}/admitcards`, {});
    expect(queued.statusCode, queued.body).toBe(202);
    const batch = queued.json() as { batchId: number; total: number; state: string };
    expect(batch).toMatchObject({ total: 4, state: 'queued' });
    await runAdmitCardBatch(deps(), job(ADMIT_CARD_BATCH_JOB, { batchId: batch.batchId }));
    const [done] = (await admin('GET', `/api/v1/season/${season.seasonId}/admitcards`)).json() as Array<{
      state: string;
      issued: number;
      failed: number;
      cardsPerSecond: number;
    }>;
    expect(done).toMatchObject({ state: 'finished', issued: 4, failed: 0 });
    expect(done.cardsPerSecond).toBeGreaterThan(0);
    // The manager who queued it is told in the notification center, with the counts.
    expect((await notificationsOf(world.manager.id)).filter((n) => n.kind === 'bulkjob.finished')).toEqual([
      {
        kind: 'bulkjob.finished',
        titleKey: 'kinds.bulkjob.admitCards',
        params: { job: 'admitCards', seasonName: expect.any(String), state: 'finished', total: 4, issued: 4, failed: 0 },
        link: `/workspace/seasons/${season.seasonId}`,
      },
    ]);
    await app.accountMail.settled();
    const [issuedMail] = await mailsTo(app, users[0].email);
    expect(issuedMail.subject).toBe(`${exam.name} के लिए आपका प्रवेश पत्र तैयार है`);

    const pdf = await app.inject({ method: 'GET', url: `/api/v1/registration/mine/${ids[0]}/admitcard/pdf`, headers: as(users[0]) });
    expect(pdf.statusCode, pdf.body).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const [token] = qrTextsInPdf(pdf.rawPayload);
    const card = (await call(app, users[0], 'GET', `/api/v1/registration/mine/${ids[0]}/admitcard`)).json() as { token: string; rollNumber: string };
    expect(token).toBe(card.token);
    const verdict = (await call(app, world.setter, 'POST', '/api/v1/admitcard/verify', { body: { token } })).json() as {
      verdict: string;
      candidate: { rollNumber: string };
    };
    expect(verdict).toMatchObject({ verdict: 'valid', candidate: { rollNumber: card.rollNumber } });
    // Someone else's card: 404; the staff copy is the same document.
    expect((await app.inject({ method: 'GET', url: `/api/v1/registration/mine/${ids[0]}/admitcard/pdf`, headers: as(users[1]) })).statusCode).toBe(404);
    const staff = await app.inject({
      method: 'GET',
      url: `/api/v1/registration/${ids[0]}/admitcard/pdf`,
      headers: { ...as(world.manager), ProjectId: String(world.projectId) },
    });
    expect(staff.statusCode).toBe(200);
    expect(staff.rawPayload.equals(pdf.rawPayload)).toBe(true);
  });

  it('should keep a candidate’s supporting document for the registrar, and refuse one without accommodations', async () => {
    const { app } = get();
    const user = await candidate();
    const asked = await register(user, { accommodations: { extraTimePercent: 25, largePrint: true } });
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const form = (content: Buffer, name: string) => {
      const boundary = '----test-boundary';
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
    };
    const upload = (id: number, content: Buffer, name: string) => {
      const f = form(content, name);
      return app.inject({ method: 'POST', url: `/api/v1/registration/mine/${id}/document`, headers: { ...as(user), ...f.headers }, payload: f.body });
    };
    expect((await upload(asked, Buffer.from('just text'), 'note.txt')).statusCode).toBe(415);
    const ok = await upload(asked, png, 'certificate.png');
    expect(ok.statusCode, ok.body).toBe(201);
    const record = (await admin('GET', `/api/v1/registration/${asked}`)).json() as { document: { fileName: string } };
    expect(record.document.fileName).toBe('certificate.png');
    const download = await app.inject({
      method: 'GET',
      url: `/api/v1/registration/${asked}/document`,
      headers: { ...as(world.manager), ProjectId: String(world.projectId) },
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(png)).toBe(true);

    const plain = await register(await candidate(), {});
    const other = await createSignedInUser(app, { roles: ['Candidate'] });
    const f = form(png, 'x.png');
    expect(
      (await app.inject({ method: 'POST', url: `/api/v1/registration/mine/${plain}/document`, headers: { ...as(other), ...f.headers }, payload: f.body }))
        .statusCode,
    ).toBe(404);
  });

  it('should register a sheet of candidates in a job with counts and an error file giving each refused row’s reason', async () => {
    const { app } = get();
    const known = await candidate();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Registrations');
    sheet.addRow(['email', 'exam', 'papers', 'medium', 'preferredCity', 'extraTimePercent', 'scribe', 'largePrint']);
    sheet.addRow([known.email, exam.code, '', 'en', 'Surat', '10', 'no', 'yes']);
    sheet.addRow(['nobody@example.invalid', exam.code, '', 'en', 'Surat', '', '', '']);
    sheet.addRow([known.email, exam.code, '', 'en', 'Surat', '', '', '']);
    sheet.addRow([known.email, exam.code, '', 'xx', 'Pune', '200', 'maybe', '']);
    const content = Buffer.from(await workbook.xlsx.writeBuffer());
    const boundary = '----bulk';
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="march.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const accepted = await app.inject({
      method: 'POST',
      url: `/api/v1/registration/upload?seasonId=${season.seasonId}&approve=true`,
      headers: { ...as(world.manager), ProjectId: String(world.projectId), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(accepted.statusCode, accepted.body).toBe(202);
    const { jobId } = accepted.json() as { jobId: number };
    await runRegistrationUpload(deps(), job(REGISTRATION_UPLOAD_JOB, { uploadId: jobId }));
    const jobs = (await admin('POST', '/api/v1/registration/upload/search', { seasonId: season.seasonId })).json() as {
      data: Array<{ jobId: number; state: string; totalRows: number; createdCount: number; failedCount: number; hasErrorFile: boolean }>;
    };
    expect(jobs.data.find((j) => j.jobId === jobId)).toMatchObject({ state: 'finished', totalRows: 4, createdCount: 1, failedCount: 3, hasErrorFile: true });
    expect((await notificationsOf(world.manager.id)).find((n) => n.params.job === 'registrations')).toEqual({
      kind: 'bulkjob.finished',
      titleKey: 'kinds.bulkjob.finished',
      params: { job: 'registrations', fileName: 'march.xlsx', state: 'finished', created: 1, failed: 3, total: 4 },
      link: '/workspace/registrations',
    });
    const mine = (await call(app, known, 'GET', '/api/v1/registration/mine')).json() as Array<{ status: string; accommodationStatus: string }>;
    expect(mine).toMatchObject([{ status: 'Approved', accommodationStatus: 'requested' }]);

    const file = await app.inject({
      method: 'POST',
      url: `/api/v1/registration/upload/${jobId}/errorfile`,
      headers: { ...as(world.manager), ProjectId: String(world.projectId) },
    });
    expect(file.statusCode).toBe(200);
    const errors = new ExcelJS.Workbook();
    await errors.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
    const rows = errors.worksheets[0].getSheetValues().slice(2) as unknown[][];
    const reasons = rows.map((r) => String(r[r.length - 1]));
    expect(rows.map((r) => r[1])).toEqual([3, 4, 5]);
    expect(reasons[0]).toContain('No active account has the e-mail nobody@example.invalid');
    expect(reasons[1]).toContain('The same candidate and exam are in row 2 of this file.');
    expect(reasons[2]).toContain('medium must be one of en, hi.');
    expect(reasons[2]).toContain('preferredCity must be one of Ahmedabad, Surat.');
    expect(reasons[2]).toContain('extraTimePercent must be a whole number from 0 to 100.');
  });

  it('should give new seasons the project’s roll pattern, and refuse a pattern that could repeat numbers', async () => {
    expect((await admin('PUT', '/api/v1/season/rollpattern', { rollPattern: '{center}{seq:4}' })).statusCode).toBe(400);
    const set = await admin('PUT', '/api/v1/season/rollpattern', { rollPattern: 'R{season}-{center}-{seq:4}' });
    expect(set.json()).toEqual({ rollPattern: 'R{season}-{center}-{seq:4}', example: 'RMAR27-AHM-001-0042' });
    expect((await admin('GET', '/api/v1/season/rollpattern')).json()).toMatchObject({ rollPattern: 'R{season}-{center}-{seq:4}' });
    const created = await admin('POST', '/api/v1/season', {
      code: `RP${Date.now() % 100000}`,
      name: 'Pattern',
      startsOn: '2027-04-01',
      endsOn: '2027-04-30',
      registrationOpensAt: '2027-01-01T00:00:00.000Z',
      registrationClosesAt: '2027-03-01T00:00:00.000Z',
    });
    expect(created.json()).toMatchObject({ rollPattern: 'R{season}-{center}-{seq:4}' });
  });
});
