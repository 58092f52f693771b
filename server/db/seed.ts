import { randomBytes } from 'node:crypto';
import { defaultRolePermissions, roleDescriptions, roleNames } from '#machines/permissions.ts';
import { hashPassword } from '#server/lib/passwords.ts';
import { seedProjectTemplates } from '#server/modules/exams/project-templates.ts';
import type { Db } from './client.ts';

export const ROOT_TENANT = 'root';

export const seededSupportGroups = [
  { name: 'General Support', description: 'Questions that fit no other queue' },
  { name: 'Technical Support', description: 'Sign-in, browsers, devices and the exam player' },
  { name: 'Exam Administration', description: 'Registrations, schedules, centres and results' },
  { name: 'Accounts & Access', description: 'Accounts, roles and permissions' },
] as const;

export interface SeedOptions {
  adminEmail: string;
  adminPassword: string | undefined;
}

export interface SeedResult {
  /** Set only when this call created the admin with a generated password. */
  generatedAdminPassword?: string;
  adminCreated: boolean;
}

/**
 * First-start data. Idempotent: every statement inserts only what is missing, so a second
 * start changes nothing. Role permissions are kept in step with the catalogue for the
 * system roles (a permission added to the code reaches the seeded role on the next start).
 */
export async function seed(db: Db, options: SeedOptions): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    await tx.query(`insert into tenants (id, name) values ($1, $2) on conflict (id) do nothing`, [ROOT_TENANT, 'Root']);
    for (const name of roleNames) {
      const { rows } = await tx.query<{ id: string }>(
        `insert into roles (tenant_id, name, description, is_system) values ($1, $2, $3, true)
         on conflict (tenant_id, name) do update set is_system = true
         returning id`,
        [ROOT_TENANT, name, roleDescriptions[name]],
      );
      await tx.query(
        `insert into role_permissions (role_id, permission)
         select $1, unnest($2::text[]) on conflict do nothing`,
        [rows[0].id, defaultRolePermissions[name]],
      );
    }
    for (const [index, group] of seededSupportGroups.entries()) {
      await tx.query(
        `insert into support_groups (tenant_id, name, description, sort_order) values ($1, $2, $3, $4)
         on conflict (tenant_id, name) do nothing`,
        [ROOT_TENANT, group.name, group.description, index + 1],
      );
    }

    await seedProjectTemplates(tx, ROOT_TENANT);

    const existingAdmin = await tx.query(
      `select 1 from users u join user_roles ur on ur.user_id = u.id join roles r on r.id = ur.role_id
       where u.tenant_id = $1 and r.name = 'Admin' limit 1`,
      [ROOT_TENANT],
    );
    if (existingAdmin.rows.length > 0) return { adminCreated: false };

    const generatedAdminPassword = options.adminPassword ? undefined : randomBytes(18).toString('base64url');
    const password = options.adminPassword ?? generatedAdminPassword!;
    const { rows } = await tx.query<{ id: string }>(
      `insert into users (tenant_id, first_name, last_name, email, user_name, password_hash, user_type, email_confirmed)
       values ($1, 'System', 'Administrator', $2, 'admin', $3, 'platform', true)
       returning id`,
      [ROOT_TENANT, options.adminEmail, await hashPassword(password)],
    );
    await tx.query(`insert into user_roles (user_id, role_id) select $1, id from roles where tenant_id = $2 and name = 'Admin'`, [rows[0].id, ROOT_TENANT]);
    return { adminCreated: true, generatedAdminPassword };
  });
}

/** A secret generated once and shared by every instance through the database. */
export async function getOrCreateSecret(db: Db, key: string, bytes = 48): Promise<string> {
  const candidate = randomBytes(bytes).toString('base64url');
  await db.query(`insert into app_settings (key, value) values ($1, $2) on conflict (key) do nothing`, [key, candidate]);
  const { rows } = await db.query<{ value: string }>(`select value from app_settings where key = $1`, [key]);
  return rows[0].value;
}
