import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { allPermissions, P } from '#machines/permissions.ts';
import type { Queryable } from '#server/db/client.ts';
import { conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal, type Principal } from '#server/plugins/access.ts';
import * as S from './users-schemas.ts';
import type { UsersDeps } from './users-service.ts';

const tags = ['users and roles'];
const security = [{ bearer: [] }];

export const rolesMessages = {
  roleNotFound: 'The role was not found.',
  nameTaken: 'A role with this name already exists.',
  systemRole: 'The seeded roles are read-only; create a custom role instead.',
  notHeld: 'You cannot grant permissions you do not have.',
  unknownPermission: 'Unknown permission.',
  roleRetired: 'The role has been retired.',
} as const;

const PermissionName = Type.String({ minLength: 1, maxLength: 100, description: 'Permissions.<Resource>.<Action>' });
const RoleName = Type.String({ minLength: 1, maxLength: 60, pattern: '^[^<>"`]+$' });
const RoleDescription = Type.String({ maxLength: 500 });

const CreateRoleBody = Type.Object({
  name: RoleName,
  description: Type.Optional(RoleDescription),
  permissions: Type.Array(PermissionName, { maxItems: allPermissions.length, uniqueItems: true }),
});
const EditRoleBody = Type.Object({
  name: Type.Optional(RoleName),
  description: Type.Optional(RoleDescription),
  permissions: Type.Optional(Type.Array(PermissionName, { maxItems: allPermissions.length, uniqueItems: true })),
});
const RetireResult = Type.Object({ message: Type.String(), roleId: S.Uuid, usersAffected: Type.Integer() });

interface RoleRecord {
  id: string;
  name: string;
  description: string;
  isSystem: boolean;
  permissions: string[];
}

async function findRole(db: Queryable, tenantId: string, id: string): Promise<RoleRecord | undefined> {
  const { rows } = await db.query<RoleRecord>(
    `select r.id, r.name, r.description, r.is_system as "isSystem",
            coalesce((select array_agg(rp.permission order by rp.permission) from role_permissions rp where rp.role_id = r.id), '{}'::text[]) as permissions
     from roles r where r.tenant_id = $1 and r.id = $2`,
    [tenantId, id],
  );
  return rows[0];
}

async function roleSummary(db: Queryable, p: Principal, id: string) {
  const role = (await findRole(db, p.tenantId, id))!;
  const { rows } = await db.query<{ n: number }>(
    `select count(*)::int as n from user_roles ur join users u on u.id = ur.user_id
     where ur.role_id = $1 and ($2::uuid is null or u.institute_id = $2) and ($3::uuid is null or u.reseller_id = $3)`,
    [id, p.instituteId, p.resellerId],
  );
  return { ...role, userCount: rows[0].n };
}

/** Only catalogue permissions, and only ones the caller holds: nobody builds a role above themselves. */
function checkGrantable(p: Principal, permissions: readonly string[]) {
  const unknown = permissions.filter((perm) => !(allPermissions as readonly string[]).includes(perm));
  if (unknown.length) throw ValidationFailure.field('permissions', `${rolesMessages.unknownPermission} (${unknown.join(', ')})`);
  if (!permissions.every((perm) => p.permissions.has(perm))) throw forbidden(rolesMessages.notHeld);
}

/** A custom role of the caller's tenant that they could have made themselves; 404 / 409 / 403 otherwise. */
async function editableRole(db: Queryable, p: Principal, id: string): Promise<RoleRecord> {
  const role = await findRole(db, p.tenantId, id);
  if (!role) throw notFound(rolesMessages.roleNotFound);
  if (role.isSystem) throw conflict(rolesMessages.systemRole, { reason: 'systemRole' });
  checkGrantable(p, role.permissions);
  return role;
}

async function nameTaken(db: Queryable, tenantId: string, name: string, exceptId: string | null) {
  const { rows } = await db.query(`select 1 from roles where tenant_id = $1 and lower(name) = lower($2) and ($3::uuid is null or id <> $3)`, [
    tenantId,
    name,
    exceptId,
  ]);
  return rows.length > 0;
}

/**
 * Issue 23 "Role management": custom roles with a permission matrix, beside the read-only
 * seeded roles. Every permission a role carries must be one the caller holds, when the role
 * is created, edited or retired; users' permissions are read per request, so changes apply
 * to their next call.
 */
export async function rolesRoutes(fastify: FastifyInstance, deps: UsersDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const db = deps.identity.db;

  app.post(
    '/roles',
    {
      config: { access: P.Roles.Manage },
      schema: {
        tags,
        security,
        summary: 'Create a custom role (only with permissions you hold yourself)',
        body: CreateRoleBody,
        response: { 201: S.RoleSummary },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const name = request.body.name.trim();
      if (!name) throw ValidationFailure.field('name', 'The name field is required.');
      checkGrantable(p, request.body.permissions);
      if (await nameTaken(db, p.tenantId, name, null)) throw ValidationFailure.field('name', rolesMessages.nameTaken);
      const id = await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string }>(`insert into roles (tenant_id, name, description, is_system) values ($1, $2, $3, false) returning id`, [
          p.tenantId,
          name,
          request.body.description?.trim() ?? '',
        ]);
        await tx.query(`insert into role_permissions (role_id, permission) select $1, unnest($2::text[])`, [rows[0].id, request.body.permissions]);
        return rows[0].id;
      });
      return reply.status(201).send(await roleSummary(db, p, id));
    },
  );

  app.put(
    '/roles/:id',
    {
      config: { access: P.Roles.Manage },
      schema: {
        tags,
        security,
        summary: 'Edit a custom role: name, description, permissions (only roles and permissions within your own)',
        params: S.IdParams,
        body: EditRoleBody,
        response: { 200: S.RoleSummary },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const role = await editableRole(db, p, request.params.id.toLowerCase());
      const name = request.body.name?.trim();
      if (name !== undefined && !name) throw ValidationFailure.field('name', 'The name field is required.');
      if (request.body.permissions) checkGrantable(p, request.body.permissions);
      if (name && (await nameTaken(db, p.tenantId, name, role.id))) throw ValidationFailure.field('name', rolesMessages.nameTaken);
      await db.transaction(async (tx) => {
        await tx.query(`update roles set name = coalesce($2, name), description = coalesce($3, description) where id = $1`, [
          role.id,
          name ?? null,
          request.body.description?.trim() ?? null,
        ]);
        if (request.body.permissions) {
          await tx.query(`delete from role_permissions where role_id = $1`, [role.id]);
          await tx.query(`insert into role_permissions (role_id, permission) select $1, unnest($2::text[])`, [role.id, request.body.permissions]);
        }
      });
      return roleSummary(db, p, role.id);
    },
  );

  app.delete(
    '/roles/:id',
    {
      config: { access: P.Roles.Manage },
      schema: {
        tags,
        security,
        summary: 'Retire a custom role: it is removed from every user who has it and can no longer be granted',
        params: S.IdParams,
        response: { 200: RetireResult },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const role = await editableRole(db, p, request.params.id.toLowerCase());
      const usersAffected = await db.transaction(async (tx) => {
        const removed = await tx.query(`delete from user_roles where role_id = $1`, [role.id]);
        await tx.query(`delete from roles where id = $1`, [role.id]);
        return removed.rowCount ?? 0;
      });
      return { message: rolesMessages.roleRetired, roleId: role.id, usersAffected };
    },
  );
}
