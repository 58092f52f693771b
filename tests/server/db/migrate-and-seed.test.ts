import { expect, it } from 'vitest';
import { defaultRolePermissions, roleNames } from '#machines/permissions.ts';
import type { Db } from '#server/db/client.ts';
import { migrate } from '#server/db/migrate.ts';
import { seed, seededSupportGroups, getOrCreateSecret } from '#server/db/seed.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';
import { TEST_ADMIN_EMAIL } from '#tests/setup/test-database.ts';

async function counts(db: Db) {
  const { rows } = await db.query<Record<string, number>>(
    `select (select count(*) from tenants)::int as tenants, (select count(*) from roles)::int as roles,
            (select count(*) from role_permissions)::int as permissions, (select count(*) from users)::int as users,
            (select count(*) from support_groups)::int as groups, (select count(*) from schema_migrations)::int as migrations`,
  );
  return rows[0];
}

describeEachDatabase('migrations and first-start seed', (get) => {
  it('should seed the root tenant, every role with its permissions, the support groups and one admin', async () => {
    const { db } = get();
    const roles = await db.query<{ name: string; permissions: string[] }>(
      `select r.name, array_agg(p.permission order by p.permission) as permissions
       from roles r join role_permissions p on p.role_id = r.id where r.tenant_id = 'root' group by r.name`,
    );
    expect(roles.rows.map((r) => r.name).sort()).toEqual([...roleNames].sort());
    for (const role of roles.rows) {
      expect(role.permissions).toEqual([...defaultRolePermissions[role.name as keyof typeof defaultRolePermissions]].sort());
    }
    const groups = await db.query<{ name: string }>(`select name from support_groups order by sort_order`);
    expect(groups.rows.map((g) => g.name)).toEqual(seededSupportGroups.map((g) => g.name));
    const admins = await db.query<{ email: string; password_hash: string }>(
      `select u.email, u.password_hash from users u join user_roles ur on ur.user_id = u.id join roles r on r.id = ur.role_id where r.name = 'Admin'`,
    );
    expect(admins.rows).toHaveLength(1);
    expect(admins.rows[0].email).toBe(TEST_ADMIN_EMAIL);
    expect(admins.rows[0].password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('should change nothing when migrations and the seed run again', async () => {
    const { db } = get();
    const before = await counts(db);
    expect(await migrate(db)).toEqual([]);
    const again = await seed(db, { adminEmail: 'someone-else@example.test', adminPassword: undefined });
    expect(again).toEqual({ adminCreated: false });
    expect(await counts(db)).toEqual(before);
  });

  it('should keep one generated secret per key for every caller', async () => {
    const { db } = get();
    const first = await getOrCreateSecret(db, 'test_secret');
    const second = await getOrCreateSecret(db, 'test_secret');
    expect(first).toBe(second);
    expect(first.length).toBeGreaterThanOrEqual(40);
  });
});
