import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import { beforeAll, expect, it, vi } from 'vitest';
import { buildApp } from '#server/app.ts';
import { allPermissions } from '#machines/permissions.ts';
import type { Job } from '#server/lib/jobs.ts';
import { runBulkUpload } from '#server/modules/users/users-bulk.ts';
import { escapeCell } from '#server/modules/users/users-xlsx.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, createSignedInUser, createUser, GOOD_PASSWORD, type TestUser } from '#tests/setup/test-users.ts';
import { linkIn, mailsTo } from '../identity/identity-test-kit.ts';
import { multipart, readWorkbook, rowsOf, runUploadJobs, templateHeader, workbook, zipOf } from './bulk-kit.ts';
import { callAs, createTenant } from './users-kit.ts';

const INSTITUTE_A = '0a0a0a0a-0000-4000-8000-00000000000a';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

describeEachDatabase('bulk upload and export', (get) => {
  let admin: TestUser & { token: string };
  beforeAll(async () => {
    admin = await createSignedInUser(get().app, { roles: ['Admin'], userType: 'platform' });
  });

  const upload = (user: TestUser, name: string, content: Buffer, query = '') => {
    const body = multipart({ name, content });
    return get().app.inject({ method: 'POST', url: `/api/users/uploadusers${query}`, headers: { ...as(user), ...body.headers }, payload: body.payload });
  };
  const status = async (user: TestUser, jobId: string) =>
    (await callAs(get().app, user, 'POST', '/api/users/searchuploadedjobstatus', { jobId })).json().data[0];

  it('should hand out a real .xlsx template with a header, an example row and a role drop-down fed by a Roles sheet', async () => {
    const { app } = get();
    const res = await callAs(app, admin, 'POST', '/api/users/downloadusertemplate');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    expect(res.headers['content-disposition']).toContain('user-upload-template.xlsx');
    const book = await readWorkbook(res.rawPayload);
    const users = book.getWorksheet('Users')!;
    const rows = rowsOf(users);
    // No Accept-Language: the product's default, en-IN.
    expect(rows[0]).toEqual([
      'First name',
      'Last name',
      'E-mail address',
      'User name',
      'Phone number',
      'Date of birth (YYYY-MM-DD)',
      'Role',
      'New password',
      'Confirm new password',
    ]);
    expect(rows[1].slice(0, 4)).toEqual(['Asha', 'Patel', 'asha.patel@example.com', 'asha.patel']);
    expect(users.getCell('G2').dataValidation).toMatchObject({ type: 'list', formulae: ['Roles!$A$2:$A$8'], errorTitle: 'Unknown role' });
    expect(rowsOf(book.getWorksheet('Roles')!).flat()).toEqual([
      'Role',
      'Admin',
      'Candidate',
      'ExamManager',
      'ExamStaff',
      'SupportAdmin',
      'SupportAgent',
      'Tester',
    ]);
  });

  it('should write the template in the language of the screen that asks, and read an upload in any of them (issue 23)', async () => {
    const { app } = get();
    const headerIn = async (language: string) => {
      const res = await app.inject({ method: 'POST', url: '/api/users/downloadusertemplate', headers: { ...as(admin), 'accept-language': language } });
      expect(res.statusCode).toBe(200);
      const book = await readWorkbook(res.rawPayload);
      return { header: rowsOf(book.getWorksheet('Users')!)[0], validation: book.getWorksheet('Users')!.getCell('G2').dataValidation };
    };
    const hindi = await headerIn('hi');
    expect(hindi.header).toEqual([
      'पहला नाम',
      'उपनाम',
      'ई-मेल पता',
      'उपयोगकर्ता नाम',
      'फ़ोन नंबर',
      'जन्म तिथि (YYYY-MM-DD)',
      'भूमिका',
      'नया पासवर्ड',
      'नए पासवर्ड की पुष्टि',
    ]);
    expect(hindi.validation).toMatchObject({ errorTitle: 'अज्ञात भूमिका' });
    expect((await headerIn('gu')).header[0]).toBe('પ્રથમ નામ');
    expect((await headerIn('fr-FR,fr;q=0.9')).header.slice(0, 3)).toEqual(['Prénom', 'Nom', 'Adresse e-mail']);
    expect((await headerIn('es')).header[2]).toBe('Correo electrónico');

    // A file filled in from the Hindi template is read like any other.
    const tag = randomBytes(3).toString('hex');
    const res = await upload(
      admin,
      'hindi.xlsx',
      await workbook(hindi.header as string[], [['Meera', 'Shah', `hindi-${tag}@example.test`, `hindi-${tag}`, '', '', 'Candidate', '', '']]),
    );
    expect(res.statusCode).toBe(202);
    await runUploadJobs(app, res.json().jobId);
    expect(await status(admin, res.json().jobId)).toMatchObject({ state: 'finished', createdCount: 1, failedCount: 0 });
  });

  it('should create the good rows with invitations, refuse each bad row with its reason and list them in the error file', async () => {
    const { app, db } = get();
    const existing = await createUser(db);
    const tag = randomBytes(3).toString('hex');
    const e = (n: string) => `bulk-${tag}-${n}@example.test`;
    const file = await workbook(templateHeader, [
      ['Good', 'One', e('1'), `good1-${tag}`, '+91 90000 00001', '1995-03-04', 'SupportAgent', '', ''],
      ['Good', 'Two', e('2'), `good2-${tag}`, '', '', '', GOOD_PASSWORD, GOOD_PASSWORD],
      ['', 'NoFirst', e('3'), `nofirst-${tag}`, '', '', '', '', ''],
      ['Bad', 'Mail', 'not-an-email', `badmail-${tag}`, '', '', '', '', ''],
      ['Dup', 'InFile', e('1').toUpperCase(), `dupfile-${tag}`, '', '', '', '', ''],
      ['Dup', 'InDb', existing.email, `dupdb-${tag}`, '', '', '', '', ''],
      ['Bad', 'Role', e('7'), `badrole-${tag}`, '', '', 'Wizard', '', ''],
      ['Bad', 'Pair', e('8'), `badpair-${tag}`, '', '', '', GOOD_PASSWORD, 'something else entirely'],
      ['Weak', 'Pass', e('9'), `weak-${tag}`, '', '', '', 'password1234', 'password1234'],
      ['Asha', 'Patel', 'asha.patel@example.com', 'asha.patel', '+91 98765 43210', '1998-07-21', 'Candidate', '', ''],
      ['Future', 'Born', e('11'), `future-${tag}`, '', '2999-01-01', '', '', ''],
    ]);
    const res = await upload(admin, 'people.xlsx', file, '?RedirectUrl=/welcome');
    expect(res.statusCode).toBe(202);
    const { jobId } = res.json();
    expect(res.json()).toMatchObject({ fileName: 'people.xlsx', state: 'queued' });
    await runUploadJobs(app, jobId);
    expect(await status(admin, jobId)).toMatchObject({
      jobId,
      state: 'finished',
      totalRows: 11,
      processedRows: 11,
      createdCount: 2,
      failedCount: 9,
      hasErrorFile: true,
      message: 'Created 2 of 11 users; 9 rows failed.',
    });
    const invitation = await mailsTo(app, e('1'));
    expect(linkIn(invitation[0]).pathname).toBe('/first-login');
    expect(linkIn(invitation[0]).searchParams.get('redirectUrl')).toBe('/welcome');
    expect(linkIn((await mailsTo(app, e('2')))[0]).pathname).toBe('/confirm-email');
    const accepted = await app.inject({
      method: 'POST',
      url: '/api/users/reset-password',
      payload: { email: e('1'), password: GOOD_PASSWORD, token: linkIn(invitation[0]).searchParams.get('token'), isFirstTimeLogin: true },
    });
    expect(accepted.statusCode).toBe(200);
    const created = (await callAs(app, admin, 'POST', '/api/users/search', { keyword: `good1-${tag}` })).json().data[0];
    expect(created).toMatchObject({
      firstName: 'Good',
      phoneNumber: '+91 90000 00001',
      dateOfBirth: '1995-03-04',
      roles: [{ roleName: 'SupportAgent' }],
      isFirstTimeLogin: false,
      emailConfirmed: true,
    });

    const errors = await callAs(app, admin, 'POST', '/api/users/downloaderrorfile', { jobId });
    expect(errors.statusCode).toBe(200);
    expect(errors.headers['content-disposition']).toContain('people-errors.xlsx');
    const rows = rowsOf((await readWorkbook(errors.rawPayload)).worksheets[0]);
    expect(rows[0]).toEqual(['rowNumber', ...templateHeader, 'reason']);
    const reasons = Object.fromEntries(rows.slice(1).map((r) => [r[0], r[r.length - 1]]));
    expect(reasons).toEqual({
      4: 'firstName is required.',
      5: '"not-an-email" is not a valid e-mail address.',
      6: 'The e-mail address is already used in row 2 of this file.',
      7: 'An account with this e-mail address already exists.',
      8: 'Unknown role "Wizard". Use one of: Admin, Candidate, ExamManager, ExamStaff, SupportAdmin, SupportAgent, Tester.',
      9: 'The passwords do not match.',
      10: expect.stringContaining('common or breached'),
      11: "This is the template's example row; replace it with real data.",
      12: 'dateOfBirth must be between 1900-01-01 and today.',
    });
    expect(JSON.stringify(rows)).not.toContain(GOOD_PASSWORD);
    const viaQuery = await callAs(app, admin, 'POST', `/api/users/downloaderrorfile?jobId=${jobId}`);
    expect(viaQuery.statusCode).toBe(200);
  });

  it('should never work a finished upload again, whoever runs its job', async () => {
    const { app, db } = get();
    const tag = randomBytes(3).toString('hex');
    const res = await upload(admin, 'once.xlsx', await workbook(templateHeader, [['Once', 'Only', `once-${tag}@example.test`, `once-${tag}`]]));
    const { jobId } = res.json();
    await runUploadJobs(app, jobId);
    const { rows } = await db.query<{ id: string }>(`select job_id as id from user_uploads where id = $1`, [jobId]);
    const job = { id: rows[0].id, tenant_id: 'root', kind: 'users.bulkUpload', payload: { uploadId: jobId }, attempts: 2, created_by: admin.id } satisfies Job;
    await runBulkUpload({ identity: app.identity, pokeJobs: () => undefined }, job, pino({ level: 'silent' }));
    expect(await status(admin, jobId)).toMatchObject({ state: 'finished', createdCount: 1, failedCount: 0 });
    const { rows: jobs } = await db.query<{ state: string; attempts: number }>(`select state, attempts from jobs where id = $1`, [rows[0].id]);
    expect(jobs[0]).toEqual({ state: 'done', attempts: 1 });
  });

  it('should refuse hostile files: not a workbook, over 5 MB, a zip bomb, over 10,000 rows, and a __proto__ column pollutes nothing', async () => {
    const { app } = get();
    const text = await upload(admin, 'users.xlsx', Buffer.from('firstName,lastName\nA,B\n'));
    expect(text.statusCode).toBe(415);
    const big = Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(5 * 1024 * 1024)]);
    expect((await upload(admin, 'big.xlsx', big)).statusCode).toBe(413);
    const bomb = zipOf([
      { name: '[Content_Types].xml', data: Buffer.from('<Types/>') },
      { name: 'xl/worksheets/sheet1.xml', data: Buffer.alloc(60 * 1024 * 1024, 0x20) },
    ]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const refused = await upload(admin, 'bomb.xlsx', bomb);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().messages).toEqual(['The workbook expands to more than 50 MB.']);

    const many = await workbook(
      templateHeader,
      Array.from({ length: 10_001 }, (_, i) => [`F${i}`, 'L', `many${i}@example.test`, `many${i}`]),
    );
    const tooMany = await upload(admin, 'many.xlsx', many);
    expect(tooMany.statusCode).toBe(202);
    await runUploadJobs(app, tooMany.json().jobId);
    expect(await status(admin, tooMany.json().jobId)).toMatchObject({ state: 'failed', createdCount: 0, message: 'The file has more than 10,000 rows.' });

    const tag = randomBytes(3).toString('hex');
    const proto = await workbook(
      [...templateHeader.slice(0, 4), '__proto__', 'constructor'],
      [['Proto', 'Row', `proto-${tag}@example.test`, `proto-${tag}`, '{"polluted":true}', 'x']],
    );
    const res = await upload(admin, 'proto.xlsx', proto);
    await runUploadJobs(app, res.json().jobId);
    expect(await status(admin, res.json().jobId)).toMatchObject({ state: 'finished', createdCount: 1 });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');

    const missing = await upload(admin, 'missing.xlsx', await workbook(['firstName', 'email'], [['A', 'a@example.test']]));
    await runUploadJobs(app, missing.json().jobId);
    expect(await status(admin, missing.json().jobId)).toMatchObject({
      state: 'failed',
      message: 'The header row lacks the column(s) lastName, userName. Start from the template.',
    });
    const failedFile = await callAs(app, admin, 'POST', '/api/users/downloaderrorfile', { jobId: missing.json().jobId });
    expect(rowsOf((await readWorkbook(failedFile.rawPayload)).worksheets[0])[1]).toContain(
      'The header row lacks the column(s) lastName, userName. Start from the template.',
    );
    expect((await callAs(app, admin, 'POST', '/api/users/uploadusers', { file: 'x' })).statusCode).toBe(415);
  }, 120_000);

  it('should show upload jobs only within the tenant and scope, and 409 the error file of a running job', async () => {
    const { app, db } = get();
    const scoped = await createSignedInUser(app, { roles: ['Admin'], instituteId: INSTITUTE_A });
    const res = await upload(
      admin,
      'root.xlsx',
      await workbook(templateHeader, [['A', 'B', `scope-${randomUUID()}@example.test`, `scope-${randomUUID().slice(0, 8)}`]]),
    );
    const { jobId } = res.json();
    const running = await callAs(app, admin, 'POST', '/api/users/downloaderrorfile', { jobId });
    expect(running.statusCode).toBe(409);
    expect((await callAs(app, scoped, 'POST', '/api/users/searchuploadedjobstatus', { jobId })).json().totalCount).toBe(0);
    expect((await callAs(app, scoped, 'POST', '/api/users/downloaderrorfile', { jobId })).statusCode).toBe(404);
    await createTenant(db, 'bulkco', allPermissions);
    const other = await createSignedInUser(app, { roles: ['Admin'], tenantId: 'bulkco' });
    expect((await callAs(app, other, 'POST', '/api/users/downloaderrorfile', { jobId })).statusCode).toBe(404);
    expect((await callAs(app, admin, 'POST', '/api/users/downloaderrorfile', {})).statusCode).toBe(400);
    await runUploadJobs(app, jobId);
    const mine = await upload(
      scoped,
      'mine.xlsx',
      await workbook(templateHeader, [['In', 'Scope', `inscope-${randomUUID()}@example.test`, `inscope-${randomUUID().slice(0, 8)}`]]),
    );
    await runUploadJobs(app, mine.json().jobId);
    const list = (await callAs(app, scoped, 'POST', '/api/users/searchuploadedjobstatus', {})).json();
    expect(list.data.map((j: { jobId: string }) => j.jobId)).toEqual([mine.json().jobId]);
    const createdInScope = (await callAs(app, scoped, 'POST', '/api/users/search', { keyword: 'scope' })).json();
    expect(createdInScope.data.map((u: { lastName: string; instituteId: string }) => [u.lastName, u.instituteId])).toEqual([['Scope', INSTITUTE_A]]);
  });

  it('should export the filtered users as .xlsx with formula-like text kept as typed strings, never formulas', async () => {
    const { app, db } = get();
    const tag = randomBytes(3).toString('hex');
    await createUser(db, { firstName: '=HYPERLINK("http://evil.test","x")', lastName: `Export${tag}` });
    await createUser(db, { firstName: '+SUM(1,2)', lastName: `Export${tag}`, isActive: false });
    await createUser(db, { firstName: '@cmd', lastName: `Export${tag}` });
    await db.query(`update users set phone_number = '+91 98765 43210' where first_name = '@cmd' and last_name = $1`, [`Export${tag}`]);
    const res = await callAs(app, admin, 'POST', '/api/users/downloaduserlist', { keyword: `export${tag}`, orderBy: ['firstName'] });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX);
    const rows = rowsOf((await readWorkbook(res.rawPayload)).worksheets[0]);
    expect(rows[0].slice(0, 4)).toEqual(['firstName', 'lastName', 'email', 'userName']);
    expect(
      rows
        .slice(1)
        .map((r) => r[0])
        .sort(),
    ).toEqual(['+SUM(1,2)', '=HYPERLINK("http://evil.test","x")', '@cmd']);
    // Typed strings in the file: no formula element anywhere, and the phone number without an apostrophe.
    const sheet = (await readWorkbook(res.rawPayload)).worksheets[0];
    sheet.eachRow((row) => row.eachCell((cell) => expect(cell.type).not.toBe(6 /* ExcelJS.ValueType.Formula */)));
    expect(JSON.stringify(rows)).toContain('"+91 98765 43210"');
    expect(JSON.stringify(rows)).not.toContain("'+91");
    // createdOn is written at the caller's offset (TimeZoneOffset), UTC without the header.
    const createdColumn = rows[0].indexOf('createdOn');
    expect(rows[1][createdColumn]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    const india = await app.inject({
      method: 'POST',
      url: '/api/users/downloaduserlist',
      headers: { ...as(admin), TimeZoneOffset: '+05:30' },
      payload: { keyword: `export${tag}`, orderBy: ['firstName'] },
    });
    const local = rowsOf((await readWorkbook(india.rawPayload)).worksheets[0]);
    const utc = new Date(rows[1][createdColumn] as string).getTime();
    expect(local[1][createdColumn]).toMatch(/\+05:30$/);
    expect(new Date(local[1][createdColumn] as string).getTime()).toBe(utc);
    expect((local[1][createdColumn] as string).slice(11, 16)).toBe(new Date(utc + 330 * 60_000).toISOString().slice(11, 16));
    const active = await callAs(app, admin, 'POST', '/api/users/downloaduserlist', { keyword: `export${tag}`, isActive: true });
    expect(rowsOf((await readWorkbook(active.rawPayload)).worksheets[0])).toHaveLength(3);
    expect(['=1', '+1', '-1', '@a', '\tx', '\rx', 'plain', ''].map(escapeCell)).toEqual(["'=1", "'+1", "'-1", "'@a", "'\tx", "'\rx", 'plain', '']);
  });

  it('should finish a job queued before a restart exactly once when two server instances run workers', async () => {
    const { db, config } = get();
    const tag = randomBytes(3).toString('hex');
    const rows = Array.from({ length: 30 }, (_, i) => [`Twin${i}`, 'Worker', `twin-${tag}-${i}@example.test`, `twin-${tag}-${i}`]);
    const res = await upload(admin, 'restart.xlsx', await workbook(templateHeader, rows));
    const { jobId } = res.json();
    expect(await status(admin, jobId)).toMatchObject({ state: 'queued' });
    // The test app runs no worker: the job waits, as if its server had stopped. Two new instances start.
    const instances = await Promise.all([1, 2].map(() => buildApp({ config, db, logger: false, runJobs: true })));
    await Promise.all(instances.map((i) => i.ready()));
    try {
      await vi.waitFor(async () => expect((await status(admin, jobId)).state).toBe('finished'), { timeout: 60_000, interval: 100 });
    } finally {
      await Promise.all(instances.map((i) => i.close()));
    }
    expect(await status(admin, jobId)).toMatchObject({ createdCount: 30, failedCount: 0, totalRows: 30 });
    const { rows: jobs } = await db.query<{ attempts: number; state: string }>(
      `select j.attempts, j.state from jobs j join user_uploads u on u.job_id = j.id where u.id = $1`,
      [jobId],
    );
    expect(jobs).toEqual([{ attempts: 1, state: 'done' }]);
    const { rows: created } = await db.query<{ n: number }>(`select count(*)::int as n from users where email like $1`, [`twin-${tag}-%`]);
    expect(created[0].n).toBe(30);
  }, 90_000);

  it('should let only one of two runners that hold the same upload commit its batches', async () => {
    const { app, db } = get();
    const tag = randomBytes(3).toString('hex');
    const res = await upload(
      admin,
      'race.xlsx',
      await workbook(
        templateHeader,
        [1, 2, 3].map((n) => [`Race${n}`, 'Runner', `race-${tag}-${n}@example.test`, `race-${tag}-${n}`]),
      ),
    );
    const { jobId } = res.json();
    const { rows } = await db.query<{ id: string }>(`select job_id as id from user_uploads where id = $1`, [jobId]);
    const job = { id: rows[0].id, tenant_id: 'root', kind: 'users.bulkUpload', payload: { uploadId: jobId }, attempts: 1, created_by: admin.id } satisfies Job;
    const deps = { identity: app.identity, pokeJobs: () => undefined };
    const log = pino({ level: 'silent' });
    await Promise.all([runBulkUpload(deps, job, log), runBulkUpload(deps, job, log)]);
    expect(await status(admin, jobId)).toMatchObject({ state: 'finished', totalRows: 3, createdCount: 3, failedCount: 0, processedRows: 3 });
  });
});
