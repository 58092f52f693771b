import type { FastifyInstance } from 'fastify';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import type { Db } from '#server/db/client.ts';
import { testConfig } from '#tests/setup/test-app.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '#tests/setup/test-database.ts';
import { as } from '#tests/setup/test-users.ts';
import { raiseTicket, ticketsFixture, type TicketsFixture } from '../tickets/fixture.ts';

/**
 * Issue 22: a repeated signed-in search costs one database round trip (the principal is kept,
 * the kept total rides along with the page), and answers exactly what it answered before:
 * the same totals on every page, past the last page too, and no extra field in the rows.
 */
for (const kind of testDatabaseKinds) {
  describe(`paged searches in one round trip [${kind}]`, () => {
    let database: TestDatabase;
    let dataDir: string;
    let app: FastifyInstance;
    let f: TicketsFixture;
    const statements: string[] = [];

    beforeAll(async () => {
      database = await createTestDatabase(kind);
      dataDir = await mkdtemp(path.join(tmpdir(), 'exam-portal-round-trips-'));
      const counted: Db = { ...database.db, query: (sql, params, options) => (statements.push(sql), database.db.query(sql, params, options)) };
      app = await buildApp({ config: testConfig(dataDir), db: counted, logger: false, runJobs: false });
      await app.ready();
      f = await ticketsFixture(app);
      for (let i = 0; i < 7; i += 1) await raiseTicket(app, f.requester, { supportGroupId: f.groups.general, title: `Round trip ${i}` });
    });

    afterAll(async () => {
      await app?.close();
      await database?.drop();
      await rm(dataDir, { recursive: true, force: true });
    });

    async function search(url: string, payload: Record<string, unknown>) {
      const res = await app.inject({ method: 'POST', url, headers: as(f.supportAdmin), payload });
      expect(res.statusCode).toBe(200);
      return res.json() as { data: Array<Record<string, unknown>>; totalCount: number; totalPages: number; hasNextPage: boolean };
    }

    it('should search tickets in one statement once the caller is known, with the same totals on every page', async () => {
      const url = '/api/v1/supportticketadmin/searchbyadmin';
      const { rows } = await database.db.query<{ n: number }>(`select count(*)::int as n from support_tickets where tenant_id = 'root'`);
      await search(url, { pageNumber: 1, pageSize: 3 });
      statements.length = 0;
      const first = await search(url, { pageNumber: 1, pageSize: 3 });
      expect(statements).toHaveLength(1);
      expect(first.totalCount).toBe(rows[0].n);
      expect(first.data).toHaveLength(3);
      expect(Object.keys(first.data[0])).not.toContain('total_count');
      const last = await search(url, { pageNumber: first.totalPages, pageSize: 3 });
      expect(last.totalCount).toBe(rows[0].n);
      expect(last.hasNextPage).toBe(false);
      const beyond = await search(url, { pageNumber: first.totalPages + 5, pageSize: 3 });
      expect(beyond).toMatchObject({ data: [], totalCount: rows[0].n });
      const byStatus = await search(url, { pageNumber: 1, pageSize: 3, statusId: 7 });
      expect(byStatus).toMatchObject({ data: [], totalCount: 0 });
    });

    it('should search users in one statement once the caller is known, with the same totals on every page', async () => {
      const url = '/api/users/search';
      const { rows } = await database.db.query<{ n: number }>(`select count(*)::int as n from users where tenant_id = 'root'`);
      await search(url, { pageNumber: 1, pageSize: 4 });
      statements.length = 0;
      const first = await search(url, { pageNumber: 1, pageSize: 4 });
      expect(statements).toHaveLength(1);
      expect(first.totalCount).toBe(rows[0].n);
      expect(Object.keys(first.data[0])).not.toContain('totalCount');
      const beyond = await search(url, { pageNumber: first.totalPages + 1, pageSize: 4 });
      expect(beyond).toMatchObject({ data: [], totalCount: rows[0].n });
      const keyword = await search(url, { pageNumber: 1, pageSize: 4, keyword: f.requester.email });
      expect(keyword.totalCount).toBe(1);
      expect(keyword.data[0]).toMatchObject({ id: f.requester.id });
    });
  });
}
