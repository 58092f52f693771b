import ExcelJS from 'exceljs';
import { beforeAll, expect, it } from 'vitest';
import { seededExportTemplates } from '#server/modules/statistics/seeded-export-templates.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import type { TestUser } from '#tests/setup/test-users.ts';
import { call, createProject, staffUser } from '../exams/workspace-kit.ts';
import { createCenter } from '../seasons/seasons-kit.ts';
import { satCandidate, statsWorld, type StatsWorld } from './statistics-kit.ts';

type Json = Record<string, any>;

/** Every message of an error body (validation errors by field, or messages). */
const problems = (body: Json): string[] => [...Object.values((body.errors ?? {}) as Record<string, string[]>).flat(), ...((body.messages as string[]) ?? [])];

const resultSheet = seededExportTemplates.find((t) => t.name === 'Result sheet')!;

describeEachDatabase(
  'export templates API',
  (get) => {
    let world: StatsWorld;
    beforeAll(async () => {
      world = await statsWorld(get().app, get().db);
      // Two finished deliveries: 3 of 4 and 1 of 4 (one omitted); a candidate whose name is a formula.
      await satCandidate(get().app, get().db, world, ['A', 'A', 'A', 'B']);
      const { candidate } = await satCandidate(get().app, get().db, world, ['A', undefined, 'C', 'D']);
      await get().db.query(`update users set first_name = '=HYPERLINK("http://evil.example")', last_name = '' where id = $1`, [candidate.id]);
    });

    const api = (user: TestUser, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown, headers?: Record<string, string>) =>
      call(get().app, user, method, url, { project: world.projectId, body, headers });

    const create = (body: Json, user = world.manager) => api(user, 'POST', '/api/v1/exporttemplate', body);

    async function runAndWait(templateId: number, body: Json = {}) {
      const started = await api(world.manager, 'POST', `/api/v1/exporttemplate/${templateId}/run`, body);
      expect(started.statusCode, started.body).toBe(202);
      const runId = (started.json() as Json).runId as string;
      for (let i = 0; i < 200; i += 1) {
        const run = (await api(world.manager, 'GET', `/api/v1/exportrun/${runId}`)).json() as Json;
        if (run.state === 'finished' || run.state === 'failed') return run;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('export did not finish');
    }

    it('should create, read, edit with optimistic concurrency and delete a template', async () => {
      const res = await create({ ...resultSheet, name: 'Results for the board' });
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json() as Json;
      expect(created).toMatchObject({ name: 'Results for the board', recordKind: 'results', fileType: 'xlsx', version: 1 });
      expect(created.columns.map((c: Json) => c.field)).toEqual(resultSheet.columns.map((c) => c.field));
      expect(res.headers.etag).toBe('"1"');
      const id = created.exportTemplateId as number;
      const list = (await api(world.setter, 'GET', '/api/v1/exporttemplate')).json() as Json[];
      expect(list.map((t) => t.exportTemplateId)).toContain(id);

      const edited = await api(world.manager, 'PUT', `/api/v1/exporttemplate/${id}`, { fileType: 'csv' }, { 'If-Match': '"1"' });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ fileType: 'csv', version: 2, updatedBy: { userId: world.manager.id } });
      // An edit made on version 1 now: 409 naming who changed it.
      const stale = await api(world.admin, 'PUT', `/api/v1/exporttemplate/${id}`, { version: 1, name: 'Other' });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ currentVersion: 2, changedBy: { userId: world.manager.id } });
      expect((stale.json() as Json).messages[0]).toMatch(/was changed by .* \(version 2; your edit was made on version 1\)/);
      const noVersion = await api(world.manager, 'PUT', `/api/v1/exporttemplate/${id}`, { name: 'X' });
      expect(noVersion.statusCode).toBe(400);
      expect(problems(noVersion.json() as Json).join(' ')).toContain('The version field is required');

      expect((await api(world.manager, 'DELETE', `/api/v1/exporttemplate/${id}`, undefined, { 'If-Match': '"1"' })).statusCode).toBe(409);
      expect((await api(world.manager, 'DELETE', `/api/v1/exporttemplate/${id}`, undefined, { 'If-Match': '"2"' })).statusCode).toBe(200);
      expect((await api(world.manager, 'GET', `/api/v1/exporttemplate/${id}`)).statusCode).toBe(404);
    });

    it('should refuse bad templates with 400 and a clear message, duplicates with 409, and non-admins with 403', async () => {
      const column = { field: 'score', headers: { en: 'Marks' }, format: 'number' };
      const cases: Array<[Json, string]> = [
        [{ name: 'A', recordKind: 'results', fileType: 'xlsx', columns: [{ ...column, field: 'password' }] }, '"password" is not a field of results exports.'],
        [{ name: 'B', recordKind: 'results', fileType: 'xlsx', columns: [column, column] }, '"score" is already a column.'],
        [{ name: 'C', recordKind: 'results', fileType: 'xlsx', columns: [{ ...column, headers: { en: '  ' } }] }, 'The English header is required.'],
        [
          { name: 'D', recordKind: 'results', fileType: 'xlsx', columns: [column], filters: { seasonId: 1 } },
          'results exports cannot be filtered by seasonId.',
        ],
        [
          { name: 'E', recordKind: 'results', fileType: 'xlsx', columns: [column], filters: { paperId: 999999999 } },
          'There is no paper 999999999 in this project.',
        ],
        [{ name: '   ', recordKind: 'results', fileType: 'xlsx', columns: [column] }, 'The name is required.'],
      ];
      for (const [body, message] of cases) {
        const res = await create(body);
        expect(res.statusCode, res.body).toBe(400);
        expect(problems(res.json() as Json)).toContain(message);
      }
      for (const body of [
        { name: 'F', recordKind: 'grades', fileType: 'xlsx', columns: [column] },
        { name: 'G', recordKind: 'results', fileType: 'pdf', columns: [column] },
        { name: 'H', recordKind: 'results', fileType: 'xlsx', columns: [] },
        { name: 'I', recordKind: 'results', fileType: 'xlsx', columns: [{ ...column, format: 'money' }] },
        [1, 2],
      ]) {
        const res = await create(body as Json);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
      }
      expect((await create({ name: 'Twice', recordKind: 'results', fileType: 'csv', columns: [column] })).statusCode).toBe(201);
      const again = await create({ name: 'twice', recordKind: 'results', fileType: 'csv', columns: [column] });
      expect(again.statusCode).toBe(409);
      expect((again.json() as Json).messages[0]).toBe('An export template named "twice" already exists in this project.');
      // A paper setter reads templates but does not configure the project, nor run exports.
      expect((await create({ name: 'Setter', recordKind: 'results', fileType: 'csv', columns: [column] }, world.setter)).statusCode).toBe(403);
      const outsider = await staffUser(get().app);
      expect((await api(outsider, 'GET', '/api/v1/exporttemplate')).statusCode).toBe(404);
    });

    it('should run the Result sheet as a job and write the expected .xlsx', async () => {
      const template = (await create({ ...resultSheet, name: 'Result sheet (test)' })).json() as Json;
      const run = await runAndWait(template.exportTemplateId, { language: 'hi' });
      expect(run).toMatchObject({ state: 'finished', totalRows: 2, rowsWritten: 2 });
      expect(run.fileName).toMatch(/^Result-sheet-test-\d{4}-\d{2}-\d{2}\.xlsx$/);
      const file = await api(world.manager, 'GET', `/api/v1/exportrun/${run.runId}/file`);
      expect(file.statusCode).toBe(200);
      const workbook = new ExcelJS.Workbook();
      await workbook.xlsx.load(file.rawPayload as unknown as ArrayBuffer);
      const sheet = workbook.worksheets[0];
      const header = (sheet.getRow(1).values as unknown[]).slice(1);
      expect(header).toEqual(resultSheet.columns.map((c) => c.headers.hi));
      const rows = [2, 3].map((r) => (sheet.getRow(r).values as unknown[]).slice(1));
      const marks = resultSheet.columns.findIndex((c) => c.field === 'score');
      const pct = resultSheet.columns.findIndex((c) => c.field === 'percentage');
      const omitted = resultSheet.columns.findIndex((c) => c.field === 'omitted');
      expect(rows.map((r) => [r[marks], r[marks + 1], r[pct], r[omitted]])).toEqual([
        [3, 4, 0.75, 0],
        [1, 4, 0.25, 1],
      ]);
      expect(sheet.getRow(2).getCell(pct + 1).numFmt).toBe('0.0%');
      // .xlsx cells are typed strings: the formula-like name is kept as text, never a formula.
      const name = sheet.getRow(3).getCell(2);
      expect(name.type).toBe(ExcelJS.ValueType.String);
      expect(name.value).toBe('=HYPERLINK("http://evil.example")');
    });

    it('should write .csv with formulas escaped and percentages as text, filtered as asked', async () => {
      const template = (
        await create({
          name: 'Results csv',
          recordKind: 'results',
          fileType: 'csv',
          columns: [
            { field: 'candidateName', headers: { en: 'Name' }, format: 'text' },
            { field: 'score', headers: { en: 'Marks' }, format: 'number' },
            { field: 'percentage', headers: { en: '=Share' }, format: 'percentage' },
          ],
        })
      ).json() as Json;
      const run = await runAndWait(template.exportTemplateId);
      expect(run.state).toBe('finished');
      const file = await api(world.manager, 'GET', `/api/v1/exportrun/${run.runId}/file`);
      expect(file.headers['content-type']).toContain('text/csv');
      const lines = file.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe(`Name,Marks,'=Share`);
      expect(lines.slice(1)).toEqual([expect.stringMatching(/,3,75\.0%$/), `"'=HYPERLINK(""http://evil.example"")",1,25.0%`]);

      // A filter given with the run replaces the default: a center with nobody in it gives no rows.
      const emptyCenter = (await createCenter(get().app, world.manager, { city: 'Surat' })).centerId;
      const empty = await runAndWait(template.exportTemplateId, { filters: { centerId: emptyCenter } });
      expect(empty).toMatchObject({ state: 'finished', totalRows: 0, rowsWritten: 0 });
      const unknown = await api(world.manager, 'POST', `/api/v1/exporttemplate/${template.exportTemplateId}/run`, { filters: { centerId: 999_999_999 } });
      expect(unknown.statusCode).toBe(400);
      const bad = await api(world.manager, 'POST', `/api/v1/exporttemplate/${template.exportTemplateId}/run`, { filters: { seasonId: world.seasonId } });
      expect(bad.statusCode).toBe(400);
      expect(problems(bad.json() as Json)).toContain('results exports cannot be filtered by seasonId.');
      const notAdmin = await api(world.setter, 'POST', `/api/v1/exporttemplate/${template.exportTemplateId}/run`, {});
      expect(notAdmin.statusCode).toBe(403);
    });

    it('should give a project started from a seeded project template the three seeded export templates', async () => {
      const templates = (await call(get().app, world.manager, 'GET', '/api/v1/projecttemplate')).json() as Json[];
      const board = templates.find((t) => t.name === 'School board examination')!;
      expect(board.config.exportTemplates.map((t: Json) => t.name)).toEqual(['Result sheet', 'Attendance by center', 'Item analysis']);
      const projectId = await createProject(get().app, world.manager, { templateId: board.templateId });
      const list = (await call(get().app, world.manager, 'GET', '/api/v1/exporttemplate', { project: projectId })).json() as Json[];
      expect(list.map((t) => [t.name, t.recordKind])).toEqual([
        ['Attendance by center', 'attendance'],
        ['Item analysis', 'itemStatistics'],
        ['Result sheet', 'results'],
      ]);
      expect(list.find((t) => t.name === 'Result sheet')!.columns[0]).toEqual({
        field: 'rollNumber',
        headers: { en: 'Roll number', hi: 'अनुक्रमांक', gu: 'રોલ નંબર' },
        format: 'text',
      });
    });

    it('should export the item analysis of a paper and attendance by center', async () => {
      const analysis = seededExportTemplates.find((t) => t.name === 'Item analysis')!;
      const template = (await create({ ...analysis, name: 'Item analysis (test)', fileType: 'csv' })).json() as Json;
      const refused = await api(world.manager, 'POST', `/api/v1/exporttemplate/${template.exportTemplateId}/run`, {});
      expect(refused.statusCode).toBe(400);
      expect(problems(refused.json() as Json)).toContain('Choose the paper whose itemStatistics to export.');
      const run = await runAndWait(template.exportTemplateId, { filters: { paperId: world.lockedPaperId } });
      expect(run).toMatchObject({ state: 'finished', rowsWritten: 4 });
      const csv = (await api(world.manager, 'GET', `/api/v1/exportrun/${run.runId}/file`)).body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(csv[0]).toBe(analysis.columns.map((c) => c.headers.en).join(','));
      // Item 1: both right → facility 100.0%; item 2: one right of two → 50.0%, one omitted → 50.0%.
      const byNumber = new Map(csv.slice(1).map((line) => [line.split(',')[0], line]));
      expect(csv.slice(1).filter((l) => l.includes(',100.0%,')).length).toBeGreaterThanOrEqual(1);
      expect([...byNumber.values()].some((l) => l.includes(',50.0%,') && l.endsWith(',50.0%,'))).toBe(true);

      const attendance = seededExportTemplates.find((t) => t.name === 'Attendance by center')!;
      const at = (await create({ ...attendance, name: 'Attendance (test)', fileType: 'csv' })).json() as Json;
      const done = await runAndWait(at.exportTemplateId, { filters: { centerId: world.centers[0] } });
      expect(done).toMatchObject({ state: 'finished', rowsWritten: 2 });
      const lines = (await api(world.manager, 'GET', `/api/v1/exportrun/${done.runId}/file`)).body.trimEnd().split('\r\n');
      expect(lines.slice(1).every((l: string) => l.includes(',Present,'))).toBe(true);
      const runs = (await api(world.manager, 'GET', '/api/v1/exportrun')).json() as Json[];
      expect(runs[0].runId).toBe(done.runId);
    });
  },
  { runJobs: true },
);
