import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { TEST_ADMIN_EMAIL } from '#tests/setup/test-database.ts';
import { as, createSignedInUser, type TestUser } from '#tests/setup/test-users.ts';

/**
 * The administrator's dashboard aggregates (issue 21, docs/decisions/0266): each figure is what
 * the rows say for the caller's tenant; a user without the permission gets 403.
 */
describeEachDatabase('dashboard aggregates of user administration', (get) => {
  let admin: TestUser;
  let candidate: TestUser;
  const call = (user: TestUser, url: string) => get().app.inject({ method: 'GET', url, headers: as(user) });

  beforeAll(async () => {
    const { app, db } = get();
    admin = await createSignedInUser(app, { roles: ['Admin'], firstName: 'Ada', lastName: 'Admin' });
    candidate = await createSignedInUser(app, { roles: ['Candidate'], firstName: 'Cyrus', lastName: 'Candidate' });
    // Locked out now, and two failed sign-ins (one of them for the seeded administrator).
    await db.query(
      `insert into sign_in_failures (user_id, consecutive_failures, last_failure_at, locked_until) values ($1, 10, now(), now() + interval '15 minutes')`,
      [candidate.id],
    );
    for (let i = 0; i < 2; i += 1) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/tokens',
        headers: { tenant: 'root' },
        payload: { email: TEST_ADMIN_EMAIL, password: `wrong password ${i}` },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    }
  });

  it('should count the users of the tenant as active, awaiting confirmation, inactive and locked', async () => {
    const res = await call(admin, '/api/v1/dashboard/admin/users');
    expect(res.statusCode).toBe(200);
    const { rows } = await get().db.query<{ active: number; waiting: number; inactive: number; total: number }>(
      `select count(*) filter (where is_active and email_confirmed)::int as active, count(*) filter (where is_active and not email_confirmed)::int as waiting,
         count(*) filter (where not is_active)::int as inactive, count(*)::int as total from users where tenant_id = 'root'`,
    );
    expect(res.json()).toEqual({ total: rows[0].total, active: rows[0].active, awaitingConfirmation: rows[0].waiting, inactive: rows[0].inactive, locked: 1 });
  });

  it('should list the failed sign-ins of the last day, the latest first', async () => {
    const body = (await call(admin, '/api/v1/dashboard/admin/sign-in-failures')).json();
    expect(body.lastDay).toBeGreaterThanOrEqual(2);
    expect(body.recent[0]).toMatchObject({ email: TEST_ADMIN_EMAIL, occurredAt: expect.any(String) });
    expect(Date.parse(body.recent[0].occurredAt)).toBeGreaterThanOrEqual(Date.parse(body.recent[1].occurredAt));
  });

  it('should give the bulk upload jobs by state and the directory status', async () => {
    const { db } = get();
    await db.query(
      `insert into user_uploads (tenant_id, file_name, content, size_bytes, uploaded_by, state, created_count, failed_count, created_at)
       values ('root', 'first.xlsx', '\\x00', 1, $1, 'finished', 48, 2, now() - interval '1 hour'), ('root', 'second.xlsx', '\\x00', 1, $1, 'failed', 0, 0, now())`,
      [admin.id],
    );
    const jobs = (await call(admin, '/api/v1/dashboard/admin/jobs')).json();
    expect(jobs.byState).toEqual([
      { state: 'failed', count: 1 },
      { state: 'finished', count: 1 },
    ]);
    expect(jobs.recent.map((j: { fileName: string; createdCount: number }) => [j.fileName, j.createdCount])).toEqual([
      ['second.xlsx', 0],
      ['first.xlsx', 48],
    ]);
    const directory = (await call(admin, '/api/v1/dashboard/admin/directory')).json();
    expect(directory.configured).toBe(false);
    const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from users where tenant_id = 'root' and login_type = 'local'`);
    expect(directory).toMatchObject({ directoryUsers: 0, localUsers: rows[0].n });
  });

  it('should refuse a candidate every one of them', async () => {
    for (const url of ['users', 'jobs', 'directory', 'sign-in-failures'])
      expect((await call(candidate, `/api/v1/dashboard/admin/${url}`)).statusCode).toBe(403);
  });
});
