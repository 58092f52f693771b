import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { P } from '#machines/permissions.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import { conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';

const tags = ['support groups'];
const security = [{ bearer: [] }];
const Uuid = Type.String({ format: 'uuid' });
const GroupIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

const SupportGroup = Type.Object({
  supportGroupId: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  isActive: Type.Boolean(),
  sortOrder: Type.Integer(),
  memberCount: Type.Integer(),
});
const Member = Type.Object({ userId: Uuid, firstName: Type.String(), lastName: Type.String(), email: Type.String() });
const Agent = Type.Object({ ...Member.properties, supportGroupIds: Type.Array(Type.Integer()) });

interface GroupRow {
  id: number;
  name: string;
  description: string;
  is_active: boolean;
  sort_order: number;
  member_count: number;
}

const toGroup = (g: GroupRow) => ({
  supportGroupId: g.id,
  name: g.name,
  description: g.description,
  isActive: g.is_active,
  sortOrder: g.sort_order,
  memberCount: g.member_count,
});

async function listGroups(db: Queryable, tenantId: string, includeInactive: boolean, onlyForUser?: string): Promise<GroupRow[]> {
  const { rows } = await db.query<GroupRow>(
    `select g.id, g.name, g.description, g.is_active, g.sort_order,
            (select count(*)::int from support_group_members m where m.group_id = g.id) as member_count
     from support_groups g
     where g.tenant_id = $1 and ($2 or g.is_active)
       and ($3::uuid is null or exists (select 1 from support_group_members m where m.group_id = g.id and m.user_id = $3))
     order by g.sort_order, lower(g.name), g.id`,
    [tenantId, includeInactive, onlyForUser ?? null],
  );
  return rows;
}

async function findGroup(db: Queryable, tenantId: string, id: number): Promise<GroupRow> {
  const rows = (await listGroups(db, tenantId, true)).filter((g) => g.id === id);
  if (!rows[0]) throw notFound(`Support group ${id} was not found.`);
  return rows[0];
}

function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

/** Support admins manage groups and who works in each; the seeded groups come first. */
export async function supportGroupRoutes(fastify: FastifyInstance, { db }: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/v1/supportgroup',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Support groups a ticket can be raised to (inactive ones too for group managers with includeInactive=true)',
        querystring: Type.Object({ includeInactive: Type.Optional(Type.Boolean()) }),
        response: { 200: Type.Array(SupportGroup) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const includeInactive = request.query.includeInactive === true;
      if (includeInactive && !p.permissions.has(P.SupportGroups.Manage)) throw forbidden('Only group managers see inactive groups.');
      return (await listGroups(db, p.tenantId, includeInactive)).map(toGroup);
    },
  );

  app.get(
    '/v1/supportgroup/mine',
    {
      config: { access: P.SupportTickets.Work },
      schema: { tags, security, summary: 'The support groups you work in', response: { 200: Type.Array(SupportGroup) } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      return (await listGroups(db, p.tenantId, false, p.userId)).map(toGroup);
    },
  );

  const GroupBody = Type.Object({
    name: Type.String({ minLength: 2, maxLength: 100 }),
    description: Type.Optional(Type.String({ maxLength: 500 })),
  });

  app.post(
    '/v1/supportgroup',
    {
      config: { access: P.SupportGroups.Manage },
      schema: { tags, security, summary: 'Create a support group', body: GroupBody, response: { 201: SupportGroup } },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      try {
        const { rows } = await db.query<{ id: number }>(`insert into support_groups (tenant_id, name, description) values ($1, $2, $3) returning id`, [
          p.tenantId,
          request.body.name.trim(),
          request.body.description?.trim() ?? '',
        ]);
        return reply.status(201).send(toGroup(await findGroup(db, p.tenantId, rows[0].id)));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A support group named "${request.body.name.trim()}" already exists.`);
        throw error;
      }
    },
  );

  app.put(
    '/v1/supportgroup/:id',
    {
      config: { access: P.SupportGroups.Manage },
      schema: {
        tags,
        security,
        summary: 'Rename, describe, deactivate or reactivate a support group',
        params: GroupIdParams,
        body: Type.Object({
          name: Type.Optional(Type.String({ minLength: 2, maxLength: 100 })),
          description: Type.Optional(Type.String({ maxLength: 500 })),
          isActive: Type.Optional(Type.Boolean()),
        }),
        response: { 200: SupportGroup },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      await findGroup(db, p.tenantId, request.params.id);
      try {
        await db.query(
          `update support_groups set name = coalesce($3, name), description = coalesce($4, description), is_active = coalesce($5, is_active)
           where id = $1 and tenant_id = $2`,
          [request.params.id, p.tenantId, request.body.name?.trim() ?? null, request.body.description?.trim() ?? null, request.body.isActive ?? null],
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A support group named "${request.body.name?.trim()}" already exists.`);
        throw error;
      }
      return toGroup(await findGroup(db, p.tenantId, request.params.id));
    },
  );

  app.get(
    '/v1/supportgroup/:id/members',
    {
      config: { access: P.SupportGroups.View },
      schema: { tags, security, summary: 'The agents of a support group', params: GroupIdParams, response: { 200: Type.Array(Member) } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      await findGroup(db, p.tenantId, request.params.id);
      const { rows } = await db.query<{ userId: string; firstName: string; lastName: string; email: string }>(
        `select u.id as "userId", u.first_name as "firstName", u.last_name as "lastName", u.email
         from support_group_members m join users u on u.id = m.user_id
         where m.group_id = $1 order by lower(u.first_name), lower(u.last_name), u.id`,
        [request.params.id],
      );
      return rows;
    },
  );

  app.put(
    '/v1/supportgroup/:id/members',
    {
      config: { access: P.SupportGroups.Manage },
      schema: {
        tags,
        security,
        summary: 'Set who works in a support group (agents only)',
        params: GroupIdParams,
        body: Type.Object({ userIds: Type.Array(Uuid, { maxItems: 500, uniqueItems: true }) }),
        response: { 200: Type.Array(Member) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      await findGroup(db, p.tenantId, request.params.id);
      const { userIds } = request.body;
      await db.transaction(async (tx) => {
        const { rows } = await tx.query<{ id: string }>(
          `select u.id from users u
           where u.tenant_id = $1 and u.id = any($2::uuid[]) and u.is_active
             and exists (select 1 from user_roles ur join role_permissions rp on rp.role_id = ur.role_id
                         where ur.user_id = u.id and rp.permission = $3)`,
          [p.tenantId, userIds, P.SupportTickets.Work],
        );
        const agents = new Set(rows.map((r) => r.id));
        const notAgents = userIds.filter((id) => !agents.has(id));
        if (notAgents.length) {
          throw new ValidationFailure({ userIds: notAgents.map((id) => `${id} is not an active support agent of this tenant.`) });
        }
        await tx.query(`delete from support_group_members where group_id = $1 and not (user_id = any($2::uuid[]))`, [request.params.id, userIds]);
        await tx.query(`insert into support_group_members (group_id, user_id) select $1, unnest($2::uuid[]) on conflict do nothing`, [
          request.params.id,
          userIds,
        ]);
      });
      const { rows } = await db.query<{ userId: string; firstName: string; lastName: string; email: string }>(
        `select u.id as "userId", u.first_name as "firstName", u.last_name as "lastName", u.email
         from support_group_members m join users u on u.id = m.user_id
         where m.group_id = $1 order by lower(u.first_name), lower(u.last_name), u.id`,
        [request.params.id],
      );
      return rows;
    },
  );

  app.get(
    '/v1/supportgroup/agents',
    {
      config: { access: P.SupportGroups.View },
      schema: { tags, security, summary: 'Every active support agent, with their groups (for pickers)', response: { 200: Type.Array(Agent) } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<{ userId: string; firstName: string; lastName: string; email: string; supportGroupIds: number[] }>(
        `select u.id as "userId", u.first_name as "firstName", u.last_name as "lastName", u.email,
                coalesce(array(select m.group_id from support_group_members m where m.user_id = u.id order by m.group_id), '{}') as "supportGroupIds"
         from users u
         where u.tenant_id = $1 and u.is_active
           and exists (select 1 from user_roles ur join role_permissions rp on rp.role_id = ur.role_id
                       where ur.user_id = u.id and rp.permission = $2)
         order by lower(u.first_name), lower(u.last_name), u.id`,
        [p.tenantId, P.SupportTickets.Work],
      );
      return rows;
    },
  );
}
