import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { parseCoverageReport } from '#server/modules/machines/machines-routes.ts';
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
    });
  });

  it('should refuse text that is not a coverage report', () => {
    expect(parseCoverageReport('{ half')).toBeNull();
    expect(parseCoverageReport('[]')).toBeNull();
    expect(parseCoverageReport(JSON.stringify({ machineId: 'x', states: { covered: [1], total: [] }, transitions: report.transitions }))).toBeNull();
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
      app = await buildApp({ config, db: database.db, logger: { level: 'silent' }, runJobs: false, machineCoverageDir: coverageDir });
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
          },
        ],
      });
    });

    it('should refuse people without Permissions.Machines.View (403) and anonymous callers (401)', async () => {
      expect((await get(candidate)).statusCode).toBe(403);
      const anonymous = await get();
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ statusCode: 401 });
    });
  });
}
