import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { machineFileName, mutationScores, parseCoverageReport, parseReplayFile } from '#server/modules/machines/machines-routes.ts';
import { testConfig } from '#tests/setup/test-app.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '#tests/setup/test-database.ts';
import { as, createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';

const report = {
  machineId: 'snackbar',
  states: { covered: ['snackbar.closed', 'snackbar.opened'], total: ['snackbar.closed', 'snackbar.opened', 'snackbar.closing'] },
  transitions: { covered: ['a', 'b'], total: ['a', 'b'] },
  generatedAt: '2026-11-22T17:00:00.000Z',
};

describe('parseCoverageReport', () => {
  it('should count covered and list uncovered states and transitions', () => {
    expect(parseCoverageReport(JSON.stringify(report))).toEqual({
      machineId: 'snackbar',
      states: { covered: 2, total: 3, uncovered: ['snackbar.closing'] },
      transitions: { covered: 2, total: 2, uncovered: [] },
      generatedAt: '2026-11-22T17:00:00.000Z',
      transitionKeys: ['a', 'b'],
    });
  });

  it('should refuse text that is not a coverage report', () => {
    expect(parseCoverageReport('{ half')).toBeNull();
    expect(parseCoverageReport('[]')).toBeNull();
    expect(parseCoverageReport(JSON.stringify({ machineId: 'x', states: { covered: [1], total: [] }, transitions: report.transitions }))).toBeNull();
  });
});

describe('replay files and mutation scores', () => {
  it('should name machine files from machine ids', () => {
    expect(['pagedSearch', 'version-check', 'ticketView', 'realtime-connection'].map(machineFileName)).toEqual([
      'paged-search.machine.ts',
      'version-check.machine.ts',
      'ticket-view.machine.ts',
      'realtime-connection.machine.ts',
    ]);
  });

  it('should score killed and timed-out mutants against survivors and uncovered ones, ignoring the rest', () => {
    const mutants = (statuses: string[]) => statuses.map((status) => ({ status }));
    const text = JSON.stringify({
      files: {
        'machines/snackbar.machine.ts': { mutants: mutants(['Killed', 'Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored', 'CompileError']) },
        'machines/empty.machine.ts': { mutants: mutants(['Ignored']) },
      },
    });
    expect([...mutationScores(text)]).toEqual([['snackbar.machine.ts', 60]]);
    expect(mutationScores('not json').size).toBe(0);
  });

  it('should read a replay file, a failure winning over a pass for the same path', () => {
    const file = parseReplayFile(
      JSON.stringify({
        machineId: 'snackbar',
        system: 'jsdom',
        independent: true,
        ranAt: '2026-11-25T07:00:00.000Z',
        paths: [
          { key: 'k1', description: 'one', result: 'passed' },
          { key: 'k2', description: 'two', result: 'failed' },
          { key: 'k2', description: 'two again', result: 'passed' },
        ],
        transitionsExercised: ['a'],
      }),
    );
    expect(file).toMatchObject({ system: 'jsdom', independent: true, passed: 1, failed: 1, results: { k1: 'passed', k2: 'failed' } });
    expect(parseReplayFile(JSON.stringify({ machineId: 'x', system: 'telepathy', ranAt: '', paths: [], transitionsExercised: [] }))).toBeNull();
  });
});

for (const kind of testDatabaseKinds) {
  describe(`GET /api/machines/coverage [${kind}]`, () => {
    let app: FastifyInstance;
    let database: TestDatabase;
    let dataDir: string;
    let coverageDir: string;
    let tester: TestUser;
    let admin: TestUser;
    let candidate: TestUser;

    beforeAll(async () => {
      dataDir = await mkdtemp(path.join(tmpdir(), 'exam-portal-machines-'));
      coverageDir = path.join(dataDir, 'coverage');
      database = await createTestDatabase(kind);
      const config = testConfig(dataDir);
      app = await buildApp({
        config,
        db: database.db,
        logger: { level: 'silent' },
        runJobs: false,
        machineCoverageDir: coverageDir,
        machineMutationReport: path.join(dataDir, 'mutation.json'),
      });
      await app.ready();
      tester = await createSignedInUser(app, { roles: ['Tester'] });
      admin = await createSignedInUser(app, { roles: ['Admin'] });
      candidate = await createSignedInUser(app, { roles: ['Candidate'] });
    });

    afterAll(async () => {
      await app?.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    const get = (user?: TestUser) => app.inject({ method: 'GET', url: '/api/machines/coverage', headers: user ? as(user) : {} });

    it('should answer an empty list (every machine not measured) when no test run left reports', async () => {
      const res = await get(tester);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ reports: [] });
    });

    it('should answer the reports of the latest run and skip files that are not reports, never failing', async () => {
      await mkdir(coverageDir, { recursive: true });
      await writeFile(path.join(coverageDir, 'snackbar.json'), JSON.stringify(report));
      await writeFile(path.join(coverageDir, 'broken.json'), '{ not json');
      await writeFile(path.join(coverageDir, 'notes.txt'), 'ignored');
      const res = await get(admin);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        reports: [
          {
            machineId: 'snackbar',
            states: { covered: 2, total: 3, uncovered: ['snackbar.closing'] },
            transitions: { covered: 2, total: 2, uncovered: [] },
            generatedAt: '2026-11-22T17:00:00.000Z',
            verified: { covered: 0, total: 2, uncovered: ['a', 'b'] },
            replays: [],
            mutationScore: null,
          },
        ],
      });
    });

    it('should count as verified only transitions a replay with an independent check walked, and show the mutation score', async () => {
      await mkdir(path.join(coverageDir, 'replays'), { recursive: true });
      const replay = (system: string, independent: boolean, exercised: string[]) => ({
        machineId: 'snackbar',
        system,
        independent,
        ranAt: '2026-11-25T07:00:00.000Z',
        paths: [{ key: 'k1', description: 'open → close', result: 'passed' }],
        transitionsExercised: exercised,
      });
      await writeFile(path.join(coverageDir, 'replays', 'snackbar.machine.json'), JSON.stringify(replay('machine', false, ['a', 'b'])));
      await writeFile(path.join(coverageDir, 'replays', 'snackbar.jsdom.json'), JSON.stringify(replay('jsdom', true, ['b'])));
      await writeFile(
        path.join(dataDir, 'mutation.json'),
        JSON.stringify({ files: { 'machines/snackbar.machine.ts': { mutants: [{ status: 'Killed' }, { status: 'Survived' }] } } }),
      );
      const res = await get(tester);
      expect(res.statusCode).toBe(200);
      const [snackbar] = res.json().reports;
      expect(snackbar.verified).toEqual({ covered: 1, total: 2, uncovered: ['a'] });
      expect(snackbar.mutationScore).toBe(50);
      expect(snackbar.replays).toEqual([
        { system: 'jsdom', independent: true, ranAt: '2026-11-25T07:00:00.000Z', passed: 1, failed: 0, results: { k1: 'passed' } },
        { system: 'machine', independent: false, ranAt: '2026-11-25T07:00:00.000Z', passed: 1, failed: 0, results: { k1: 'passed' } },
      ]);
    });

    it('should refuse people without Permissions.Machines.View (403) and anonymous callers (401)', async () => {
      expect((await get(candidate)).statusCode).toBe(403);
      const anonymous = await get();
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ statusCode: 401 });
    });
  });
}
