import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { as, type TestUser } from '#tests/setup/test-users.ts';
import { call, managerUser, staffUser, uniqueCode } from '../exams/workspace-kit.ts';
import { multipart, readWorkbook, rowsOf, workbook } from '../users/bulk-kit.ts';
import { createCenter } from './seasons-kit.ts';

const header = ['code', 'name', 'address', 'city', 'state', 'capacity', 'cbtCapable', 'contactName', 'contactPhone', 'contactEmail', 'isActive'];

describeEachDatabase('exam centers', (get) => {
  let manager: TestUser;
  let staff: TestUser;
  const city = `Vadodara-${uniqueCode('x')}`;
  beforeAll(async () => {
    manager = await managerUser(get().app);
    staff = await staffUser(get().app);
  });

  const upload = (user: TestUser, name: string, content: Buffer) => {
    const body = multipart({ name, content });
    return get().app.inject({ method: 'POST', url: '/api/v1/examcenter/import', headers: { ...as(user), ...body.headers }, payload: body.payload });
  };

  it('should create, read and edit a center, refusing a duplicate code and a stale edit', async () => {
    const { app } = get();
    const center = await createCenter(app, manager, { city, capacity: 120, contactEmail: 'head@example.org' });
    expect(center).toMatchObject({ capacity: 120, version: 1 });
    const again = await call(app, manager, 'POST', '/api/v1/examcenter', { body: { code: center.code.toLowerCase(), name: 'X', city, capacity: 1 } });
    expect(again.statusCode).toBe(409);
    expect(again.json().messages[0]).toContain('already exists');
    const edited = await call(app, manager, 'PUT', `/api/v1/examcenter/${center.centerId}`, { body: { capacity: 150, version: 1 } });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ capacity: 150, version: 2, updatedBy: { userId: manager.id } });
    const stale = await call(app, manager, 'PUT', `/api/v1/examcenter/${center.centerId}`, { body: { name: 'Old tab', version: 1 } });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ currentVersion: 2 });
    const read = await call(app, staff, 'GET', `/api/v1/examcenter/${center.centerId}`);
    expect(read.statusCode).toBe(200);
    expect(read.headers.etag).toBe('"2"');
  });

  it('should answer bad input with 400s naming the field, a missing center with 404, and staff writes with 403', async () => {
    const { app } = get();
    for (const body of [
      { code: 'A B', name: 'X', city, capacity: 10 },
      { code: 'OK1', name: 'X', city, capacity: 0 },
      { code: 'OK2', name: 'X', city: '', capacity: 10 },
      { code: 'OK3', name: 'X', city, capacity: 10, contactEmail: 'not-mail' },
    ]) {
      const res = await call(app, manager, 'POST', '/api/v1/examcenter', { body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call(app, manager, 'GET', '/api/v1/examcenter/999999999')).statusCode).toBe(404);
    const denied = await call(app, staff, 'POST', '/api/v1/examcenter', { body: { code: uniqueCode('C'), name: 'X', city, capacity: 10 } });
    expect(denied.statusCode).toBe(403);
    const blank = await call(app, manager, 'PUT', '/api/v1/examcenter/999999999', { body: { name: 'X', version: 1 } });
    expect(blank.statusCode).toBe(404);
  });

  it('should search by keyword and filter by city, CBT, active and capacity', async () => {
    const { app } = get();
    const searchCity = `Rajkot-${uniqueCode('y')}`;
    await createCenter(app, manager, { city: searchCity, name: 'Alpha Hall', capacity: 50, cbtCapable: false });
    await createCenter(app, manager, { city: searchCity, name: 'Beta Hall', capacity: 300, cbtCapable: true });
    await createCenter(app, manager, { city: searchCity, name: 'Gamma Hall', capacity: 80, cbtCapable: true, isActive: false });
    const search = async (body: Record<string, unknown>) => {
      const res = await call(app, staff, 'POST', '/api/v1/examcenter/search', { body: { city: searchCity, ...body } });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { data: Array<{ name: string }>; totalCount: number }).data.map((c) => c.name);
    };
    expect(await search({})).toEqual(['Alpha Hall', 'Beta Hall', 'Gamma Hall']);
    expect(await search({ cbtCapable: true })).toEqual(['Beta Hall', 'Gamma Hall']);
    expect(await search({ cbtCapable: true, isActive: true })).toEqual(['Beta Hall']);
    expect(await search({ minCapacity: 60, orderBy: ['capacity desc'] })).toEqual(['Beta Hall', 'Gamma Hall']);
    expect(await search({ keyword: 'gamma' })).toEqual(['Gamma Hall']);
    const bad = await call(app, staff, 'POST', '/api/v1/examcenter/search', { body: { orderBy: ['secret asc'] } });
    expect(bad.statusCode).toBe(400);
  });

  it('should import good rows, refuse bad ones with reasons, and give them back in an error file', async () => {
    const { app } = get();
    const taken = await createCenter(app, manager, { city });
    const good = uniqueCode('IMP');
    const file = await workbook(header, [
      [good, 'Imported School', '1 Main Road', city, 'Gujarat', 90, 'yes', 'A. Head', '+91 1', 'a@example.org', 'yes'],
      [taken.code, 'Duplicate in database', '', city, '', 10, '', '', '', '', ''],
      [good, 'Duplicate in file', '', city, '', 10, '', '', '', '', ''],
      [uniqueCode('IMP'), 'No capacity', '', city, '', '', '', '', '', '', ''],
      [uniqueCode('IMP'), 'Bad flag', '', city, '', 10, 'maybe', '', '', '', ''],
    ]);
    const res = await upload(manager, 'centres.xlsx', file);
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json() as { importId: number; createdCount: number; failedCount: number; errors: Array<{ rowNumber: number; reason: string }> };
    expect(answer).toMatchObject({ totalRows: 5, createdCount: 1, failedCount: 4, hasErrorFile: true });
    expect(answer.errors.map((e) => e.rowNumber)).toEqual([3, 4, 5, 6]);
    expect(answer.errors[0].reason).toContain('already exists');
    expect(answer.errors[1].reason).toContain('row 2');
    expect(answer.errors[2].reason).toContain('capacity is required');
    expect(answer.errors[3].reason).toContain('cbtCapable must be yes or no');
    const found = await call(app, staff, 'POST', '/api/v1/examcenter/search', { body: { keyword: good } });
    expect(found.json()).toMatchObject({ totalCount: 1, data: [{ name: 'Imported School', capacity: 90, cbtCapable: true }] });

    const errors = await call(app, manager, 'POST', `/api/v1/examcenter/import/${answer.importId}/errorfile`);
    expect(errors.statusCode).toBe(200);
    expect(errors.headers['content-disposition']).toContain('centres-errors.xlsx');
    const rows = rowsOf((await readWorkbook(errors.rawPayload)).worksheets[0]);
    expect(rows[0]).toEqual(['rowNumber', ...header, 'reason']);
    expect(rows.slice(1).map((r) => r[0])).toEqual([3, 4, 5, 6]);
    expect(String(rows[4][header.length + 1])).toContain('cbtCapable');
  });

  it('should refuse a file that is not a workbook, one without the required columns, and staff uploads', async () => {
    const { app } = get();
    expect((await upload(manager, 'centres.xlsx', Buffer.from('code,name\nA,B'))).statusCode).toBe(415);
    const noCity = await upload(manager, 'centres.xlsx', await workbook(['code', 'name', 'capacity'], [['Z1', 'Z', 5]]));
    expect(noCity.statusCode).toBe(400);
    expect(noCity.json().messages[0]).toContain('city');
    expect((await upload(staff, 'centres.xlsx', await workbook(header, []))).statusCode).toBe(403);
    const template = await call(app, manager, 'POST', '/api/v1/examcenter/template');
    expect(template.statusCode).toBe(200);
    const rows = rowsOf((await readWorkbook(template.rawPayload)).worksheets[0]);
    expect(rows[0]).toEqual(header);
    // The template's example row is refused, never imported.
    const example = await upload(manager, 'template.xlsx', template.rawPayload);
    expect(example.json()).toMatchObject({ createdCount: 0, failedCount: 1 });
  });
});
