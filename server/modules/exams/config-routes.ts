import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { checkItemType, type ItemTypeSettings } from '#machines/exams/item-types.ts';
import { checkFlowDefinition, flowStates, relocateStage, type FlowDefinition } from '#machines/exams/review-flow.machine.ts';
import type { ItemKind } from '#machines/items/item-schema.ts';
import { P } from '#machines/permissions.ts';
import type { Db } from '#server/db/client.ts';
import { changeStamp, expectedVersion, setVersionTag, staleEdit } from '#server/lib/concurrency.ts';
import { conflict, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace } from '#server/plugins/workspace-context.ts';
import * as S from './exams-schemas.ts';
import { assertProjectEvent, isUniqueViolation } from './workspace-access.ts';

const security = [{ bearer: [] }];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };
const CATEGORY_NOT_FOUND = 'Category not found.';

function throwIssues(errors: Record<string, string[]>) {
  if (Object.keys(errors).length) throw new ValidationFailure(errors);
}

/**
 * The preamble of every configuration change: who calls, in which project, and whether the
 * project machine takes `project.configure` from them now. `find` looks the edited record up
 * first, so an id outside the project stays a 404 whatever the project's status.
 */
async function configuring<T = undefined>(request: FastifyRequest, find?: (projectId: number) => Promise<T>) {
  const principal = requirePrincipal(request);
  const workspace = requireWorkspace(request);
  const current = find ? await find(workspace.project.id) : (undefined as T);
  assertProjectEvent(workspace, { type: 'project.configure' });
  return { p: principal, workspace, current };
}

/** The stages of `previous` that `next` removes, and where their records go (docs/decisions/0092). */
export function stageMovesOf(previous: FlowDefinition, next: FlowDefinition): Array<{ from: string; to: string }> {
  return previous.stages.map((s) => ({ from: s.id, to: relocateStage(previous, next, s.id) })).filter((m) => m.from !== m.to);
}

/** Item types, the category tree and review flows of the project (the set-up stepper's steps). */
export async function configRoutes(fastify: FastifyInstance, { db }: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // ---- item types ----------------------------------------------------------------------------

  const itemTypeColumns = `id::int as "itemTypeId", name, kind, settings, marking, is_active as "isActive", sort_order as "sortOrder", version`;
  type ItemTypeRow = {
    itemTypeId: number;
    kind: ItemKind;
    settings: ItemTypeSettings;
    marking: S.TemplateConfig['itemTypes'][number]['marking'];
    version: number;
  };

  app.get(
    '/v1/itemtype',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['item types'],
        security,
        summary: "The project's item types (retired ones last)",
        ...projectCall,
        response: { 200: Type.Array(S.ItemType) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const { rows } = await db.query(`select ${itemTypeColumns} from item_types where project_id = $1 order by is_active desc, sort_order, id`, [
        workspace.project.id,
      ]);
      return rows as never[];
    },
  );

  app.post(
    '/v1/itemtype',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['item types'],
        security,
        summary: 'Add an item type: one of the nine base kinds with default settings and marks',
        ...projectCall,
        body: S.CreateItemTypeBody,
        response: { 201: S.ItemType },
      },
    },
    async (request, reply) => {
      const { p, workspace } = await configuring(request);
      const body = request.body;
      throwIssues(checkItemType(body.kind, body.settings ?? {}, body.marking));
      try {
        const { rows } = await db.query<ItemTypeRow>(
          `insert into item_types (tenant_id, project_id, name, kind, settings, marking, sort_order, updated_by) values ($1, $2, $3, $4, $5, $6, $7, $8)
           returning ${itemTypeColumns}`,
          [
            p.tenantId,
            workspace.project.id,
            body.name.trim(),
            body.kind,
            JSON.stringify(body.settings ?? {}),
            JSON.stringify(body.marking),
            body.sortOrder ?? 0,
            p.userId,
          ],
        );
        setVersionTag(reply, rows[0].version);
        return reply.status(201).send(rows[0] as never);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An item type named "${body.name.trim()}" already exists in this project.`);
        throw error;
      }
    },
  );

  app.put(
    '/v1/itemtype/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['item types'],
        security,
        summary: 'Rename, change defaults, reorder or retire an item type (optimistic)',
        ...projectCall,
        params: S.IdParams,
        body: S.EditItemTypeBody,
        response: { 200: S.ItemType },
      },
    },
    async (request, reply) => {
      const { p, current } = await configuring(request, async (projectId) => {
        const { rows } = await db.query<ItemTypeRow>(`select ${itemTypeColumns} from item_types where id = $1 and project_id = $2`, [
          request.params.id,
          projectId,
        ]);
        if (!rows[0]) throw notFound('Item type not found.');
        return rows;
      });
      const version = expectedVersion(request, request.body.version);
      const body = request.body;
      throwIssues(checkItemType(current[0].kind, body.settings ?? current[0].settings, body.marking ?? current[0].marking));
      let rows: ItemTypeRow[];
      try {
        ({ rows } = await db.query<ItemTypeRow>(
          `update item_types set name = coalesce($3, name), settings = coalesce($4, settings), marking = coalesce($5, marking),
                  is_active = coalesce($6, is_active), sort_order = coalesce($7, sort_order), version = version + 1, updated_by = $8, updated_at = now()
           where id = $1 and version = $2 returning ${itemTypeColumns}`,
          [
            request.params.id,
            version,
            body.name?.trim() ?? null,
            body.settings ? JSON.stringify(body.settings) : null,
            body.marking ? JSON.stringify(body.marking) : null,
            body.isActive ?? null,
            body.sortOrder ?? null,
            p.userId,
          ],
        ));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`An item type named "${body.name?.trim()}" already exists in this project.`);
        throw error;
      }
      if (!rows[0]) throw staleEdit('item type', (await changeStamp(db, 'item_types', request.params.id))!, version);
      setVersionTag(reply, rows[0].version);
      return rows[0] as never;
    },
  );

  // ---- categories ----------------------------------------------------------------------------

  const categoryColumns = `c.id::int as "categoryId", c.parent_id::int as "parentId", c.name, c.sort_order as "sortOrder", c.is_retired as "isRetired",
    (select count(*)::int from category_files f where f.category_id = c.id) as "fileCount", c.version`;
  type CategoryRow = { categoryId: number; parentId: number | null; name: string; isRetired: boolean; version: number };

  async function findCategory(projectId: number, id: number): Promise<CategoryRow> {
    const { rows } = await db.query<CategoryRow>(`select ${categoryColumns} from categories c where c.id = $1 and c.project_id = $2`, [id, projectId]);
    if (!rows[0]) throw notFound(CATEGORY_NOT_FOUND);
    return rows[0];
  }

  const sendCategory = (reply: FastifyReply, row: CategoryRow) => {
    setVersionTag(reply, row.version);
    return row as never;
  };

  app.get(
    '/v1/category',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['categories'],
        security,
        summary: "The project's category tree as a list (parents before children, siblings in order)",
        ...projectCall,
        response: { 200: Type.Array(S.Category) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const { rows } = await db.query(
        `with recursive tree as (
           select id, array[sort_order, id::int] as path from categories where project_id = $1 and parent_id is null
           union all
           select c.id, t.path || array[c.sort_order, c.id::int] from categories c join tree t on c.parent_id = t.id
         )
         select ${categoryColumns} from tree t join categories c on c.id = t.id order by t.path`,
        [workspace.project.id],
      );
      return rows as never[];
    },
  );

  app.post(
    '/v1/category',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['categories'],
        security,
        summary: 'Add a category (top level, or under parentId)',
        ...projectCall,
        body: S.CreateCategoryBody,
        response: { 201: S.Category },
      },
    },
    async (request, reply) => {
      const { p, workspace } = await configuring(request);
      const parentId = request.body.parentId ?? null;
      if (parentId !== null) {
        const parent = await findCategory(workspace.project.id, parentId);
        if (parent.isRetired) throw conflict(`"${parent.name}" is retired: new categories cannot go under it.`);
      }
      try {
        const { rows } = await db.query<{ id: number }>(
          `insert into categories (tenant_id, project_id, parent_id, name, sort_order, updated_by)
           values ($1, $2, $3, $4, coalesce($5, (select coalesce(max(sort_order) + 1, 0) from categories where project_id = $2 and parent_id is not distinct from $3)), $6)
           returning id::int as id`,
          [p.tenantId, workspace.project.id, parentId, request.body.name.trim(), request.body.sortOrder ?? null, p.userId],
        );
        reply.status(201);
        return sendCategory(reply, await findCategory(workspace.project.id, rows[0].id));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A category named "${request.body.name.trim()}" already exists at that place.`);
        throw error;
      }
    },
  );

  app.put(
    '/v1/category/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['categories'],
        security,
        summary: 'Rename, retire or bring back a category (optimistic)',
        ...projectCall,
        params: S.IdParams,
        body: S.EditCategoryBody,
        response: { 200: S.Category },
      },
    },
    async (request, reply) => {
      const { p, workspace, current } = await configuring(request, (projectId) => findCategory(projectId, request.params.id));
      const version = expectedVersion(request, request.body.version);
      if (request.body.isRetired === true && !current.isRetired) {
        const { rows } = await db.query<{ name: string }>(`select name from categories where parent_id = $1 and not is_retired order by sort_order, id`, [
          current.categoryId,
        ]);
        if (rows.length) throw conflict(`Retire the subcategories of "${current.name}" first: ${rows.map((r) => r.name).join(', ')}.`);
      }
      let rowCount: number;
      try {
        ({ rowCount } = await db.query(
          `update categories set name = coalesce($3, name), is_retired = coalesce($4, is_retired), version = version + 1, updated_by = $5, updated_at = now()
           where id = $1 and version = $2`,
          [current.categoryId, version, request.body.name?.trim() ?? null, request.body.isRetired ?? null, p.userId],
        ));
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A category named "${request.body.name?.trim()}" already exists at that place.`);
        throw error;
      }
      if (rowCount === 0) throw staleEdit('category', (await changeStamp(db, 'categories', current.categoryId))!, version);
      return sendCategory(reply, await findCategory(workspace.project.id, current.categoryId));
    },
  );

  app.post(
    '/v1/category/:id/move',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['categories'],
        security,
        summary: 'Move a category under another parent and/or to another place among its siblings; a move that makes a cycle is refused',
        ...projectCall,
        params: S.IdParams,
        body: S.MoveCategoryBody,
        response: { 200: S.Category },
      },
    },
    async (request, reply) => {
      const { p, workspace, current } = await configuring(request, (projectId) => findCategory(projectId, request.params.id));
      const version = expectedVersion(request, request.body.version);
      const { parentId, sortOrder } = request.body;
      const moved = await db
        .transaction(async (tx) => {
          if (parentId !== null) {
            const { rows: parent } = await tx.query<{ name: string }>(`select name from categories where id = $1 and project_id = $2`, [
              parentId,
              workspace.project.id,
            ]);
            if (!parent[0]) throw notFound(CATEGORY_NOT_FOUND);
            // The new parent must not be the category or inside it.
            const { rows: cycle } = await tx.query(
              `with recursive below as (select id from categories where id = $1 union all select c.id from categories c join below b on c.parent_id = b.id)
             select 1 from below where id = $2`,
              [current.categoryId, parentId],
            );
            if (cycle[0]) {
              throw conflict(
                parentId === current.categoryId
                  ? `"${current.name}" cannot be moved under itself.`
                  : `Moving "${current.name}" under "${parent[0].name}" would make a cycle: "${parent[0].name}" is inside "${current.name}".`,
              );
            }
          }
          // Make room among the new siblings, then place it.
          await tx.query(
            `update categories set sort_order = sort_order + 1 where project_id = $1 and parent_id is not distinct from $2 and sort_order >= $3 and id <> $4`,
            [workspace.project.id, parentId, sortOrder, current.categoryId],
          );
          const result = await tx.query(
            `update categories set parent_id = $3, sort_order = $4, version = version + 1, updated_by = $5, updated_at = now() where id = $1 and version = $2`,
            [current.categoryId, version, parentId, sortOrder, p.userId],
          );
          return result.rowCount > 0;
        })
        .catch((error: unknown) => {
          if (isUniqueViolation(error)) throw conflict(`A category named "${current.name}" already exists under the new parent.`);
          throw error;
        });
      if (!moved) throw staleEdit('category', (await changeStamp(db, 'categories', current.categoryId))!, version);
      return sendCategory(reply, await findCategory(workspace.project.id, current.categoryId));
    },
  );

  app.delete(
    '/v1/category/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['categories'],
        security,
        summary: 'Delete a category that nothing uses (else retire it)',
        ...projectCall,
        params: S.IdParams,
        response: { 200: S.Deleted },
      },
    },
    async (request) => {
      const { current } = await configuring(request, (projectId) => findCategory(projectId, request.params.id));
      // Everything that references a category (docs/decisions/0200): a delete under any of them is refused with the count.
      const { rows } = await db.query<{ children: number; files: number; items: number; imports: number; draws: number }>(
        `select (select count(*)::int from categories where parent_id = $1) as children,
                (select count(*)::int from category_files where category_id = $1) as files,
                (select count(*)::int from items where category_id = $1) as items,
                (select count(*)::int from item_imports where category_id = $1) as imports,
                (select count(*)::int from paper_sections s
                   where s.rule->>'kind' = 'draw' and exists (select 1 from jsonb_array_elements(s.rule->'draws') d where d->>'categoryId' = $1::text)) as draws`,
        [current.categoryId],
      );
      const countOf = (n: number, one: string, many: string) => (n ? `${n} ${n === 1 ? one : many}` : '');
      const uses = [
        countOf(rows[0].children, 'subcategory', 'subcategories'),
        countOf(rows[0].items, 'item', 'items'),
        countOf(rows[0].files, 'file', 'files'),
        countOf(rows[0].imports, 'item import', 'item imports'),
        countOf(rows[0].draws, 'paper section draws from it', 'paper sections draw from it'),
      ].filter(Boolean);
      if (uses.length) throw conflict(`The category "${current.name}" is in use (${uses.join(', ')}): retire it instead.`, { uses: rows[0] });
      try {
        await db.query(`delete from categories where id = $1`, [current.categoryId]);
      } catch (error) {
        // Something started using it since the count: still a refusal, never a 500.
        if ((error as { code?: string }).code === '23503') throw conflict(`The category "${current.name}" is in use: retire it instead.`);
        throw error;
      }
      return { deleted: true };
    },
  );

  // ---- flows ---------------------------------------------------------------------------------

  const flowColumns = `id::int as "flowId", name, record_kind as "recordKind", definition, is_active as "isActive", version`;
  type FlowRow = { flowId: number; name: string; definition: FlowDefinition; version: number };
  const toFlow = (row: FlowRow) => ({ ...row, states: flowStates(row.definition) });
  const checkDefinition = (definition: FlowDefinition) => {
    const issues = checkFlowDefinition(definition);
    if (issues.length) throw new ValidationFailure({ definition: issues });
  };

  app.get(
    '/v1/flow',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['flows'],
        security,
        summary: "The project's review flows (the client compiles each with compileFlow to draw it)",
        ...projectCall,
        response: { 200: Type.Array(S.Flow) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const { rows } = await db.query<FlowRow>(`select ${flowColumns} from flows where project_id = $1 order by is_active desc, id`, [workspace.project.id]);
      return rows.map(toFlow) as never[];
    },
  );

  app.post(
    '/v1/flow',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['flows'],
        security,
        summary: 'Define a review flow: ordered stages, the exam permission acting at each, who submits and who retires',
        ...projectCall,
        body: S.CreateFlowBody,
        response: { 201: S.Flow },
      },
    },
    async (request, reply) => {
      const { p, workspace } = await configuring(request);
      checkDefinition(request.body.definition as FlowDefinition);
      try {
        const { rows } = await db.query<FlowRow>(
          `insert into flows (tenant_id, project_id, name, record_kind, definition, updated_by) values ($1, $2, $3, $4, $5, $6) returning ${flowColumns}`,
          [p.tenantId, workspace.project.id, request.body.name.trim(), request.body.recordKind, JSON.stringify(request.body.definition), p.userId],
        );
        setVersionTag(reply, rows[0].version);
        return reply.status(201).send(toFlow(rows[0]) as never);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A flow named "${request.body.name.trim()}" already exists in this project.`);
        throw error;
      }
    },
  );

  app.put(
    '/v1/flow/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['flows'],
        security,
        summary: 'Edit a flow (optimistic). Records in a removed stage move back to the nearest earlier stage that remains, else Draft; stageMoves says where',
        ...projectCall,
        params: S.IdParams,
        body: S.EditFlowBody,
        response: { 200: Type.Object({ ...S.Flow.properties, stageMoves: Type.Array(Type.Object({ from: Type.String(), to: Type.String() })) }) },
      },
    },
    async (request, reply) => {
      const { p, current } = await configuring(request, async (projectId) => {
        const { rows } = await db.query<FlowRow>(`select ${flowColumns} from flows where id = $1 and project_id = $2`, [request.params.id, projectId]);
        if (!rows[0]) throw notFound('Flow not found.');
        return rows;
      });
      const version = expectedVersion(request, request.body.version);
      const definition = request.body.definition as FlowDefinition | undefined;
      if (definition) checkDefinition(definition);
      const stageMoves = definition ? stageMovesOf(current[0].definition, definition) : [];
      let rows: FlowRow[];
      try {
        // The flow and the items standing in its removed stages change together (docs/decisions/0092).
        rows = await db.transaction(async (tx) => {
          const { rows: updated } = await tx.query<FlowRow>(
            `update flows set name = coalesce($3, name), definition = coalesce($4, definition), is_active = coalesce($5, is_active),
                    version = version + 1, updated_by = $6, updated_at = now()
             where id = $1 and version = $2 returning ${flowColumns}`,
            [
              request.params.id,
              version,
              request.body.name?.trim() ?? null,
              definition ? JSON.stringify(definition) : null,
              request.body.isActive ?? null,
              p.userId,
            ],
          );
          if (updated[0] && stageMoves.length) {
            await tx.query(
              `update items i set status = m.to_status, version = i.version + 1, updated_at = now(), updated_by = $2
               from jsonb_to_recordset($3::jsonb) as m(from_status text, to_status text) where i.flow_id = $1 and i.status = m.from_status`,
              [request.params.id, p.userId, JSON.stringify(stageMoves.map((m) => ({ from_status: m.from, to_status: m.to })))],
            );
          }
          return updated;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(`A flow named "${request.body.name?.trim()}" already exists in this project.`);
        throw error;
      }
      if (!rows[0]) throw staleEdit('flow', (await changeStamp(db, 'flows', request.params.id))!, version);
      setVersionTag(reply, rows[0].version);
      return { ...toFlow(rows[0]), stageMoves } as never;
    },
  );

  app.post(
    '/v1/flow/:id/preview',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags: ['flows'],
        security,
        summary: 'What saving this definition would do, without saving: each removed stage, where its records go and how many records stand there now',
        ...projectCall,
        params: S.IdParams,
        body: S.PreviewFlowBody,
        response: { 200: S.FlowPreview },
      },
    },
    async (request) => {
      const { current } = await configuring(request, async (projectId) => {
        const { rows } = await db.query<FlowRow>(`select ${flowColumns} from flows where id = $1 and project_id = $2`, [request.params.id, projectId]);
        if (!rows[0]) throw notFound('Flow not found.');
        return rows[0];
      });
      const definition = request.body.definition as FlowDefinition;
      checkDefinition(definition);
      const moves = stageMovesOf(current.definition, definition);
      const counts = new Map<string, number>();
      if (moves.length) {
        const { rows } = await db.query<{ status: string; n: number }>(
          `select status, count(*)::int as n from items where flow_id = $1 and status = any($2::text[]) group by status`,
          [current.flowId, moves.map((m) => m.from)],
        );
        for (const row of rows) counts.set(row.status, row.n);
      }
      const nameOf = (def: FlowDefinition, id: string) => def.stages.find((s) => s.id === id)?.name ?? id;
      const stageMoves = moves.map((m) => ({
        from: m.from,
        fromName: nameOf(current.definition, m.from),
        to: m.to,
        toName: nameOf(definition, m.to),
        records: counts.get(m.from) ?? 0,
      }));
      return { version: current.version, stageMoves, affectedRecords: stageMoves.reduce((sum, m) => sum + m.records, 0) };
    },
  );

  app.get(
    '/machines/flows',
    {
      config: { access: P.Machines.View, workspace: 'global' },
      schema: {
        tags: ['machines'],
        security,
        summary: "Every active flow of your tenant's projects in your scope, for the /machines page (compile each with compileFlow)",
        response: {
          200: Type.Array(
            Type.Object({
              projectId: S.RecordId,
              projectCode: Type.String(),
              projectName: Type.String(),
              flowId: S.RecordId,
              name: Type.String(),
              recordKind: S.RecordKind,
              definition: S.FlowDefinitionSchema,
              version: Type.Integer(),
              machineId: Type.String({ description: 'The id compileFlow gives the machine: flow-<flowId>' }),
            }),
          ),
        },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { rows } = await db.query<{ flowId: number }>(
        `select p.id::int as "projectId", p.code as "projectCode", p.name as "projectName", f.id::int as "flowId", f.name,
                f.record_kind as "recordKind", f.definition, f.version
         from flows f join projects p on p.id = f.project_id
         where p.tenant_id = $1 and ($2::uuid is null or p.institute_id = $2) and ($3::uuid is null or p.reseller_id = $3)
           and f.is_active and p.status <> 'Archived'
         order by lower(p.code), f.id limit 500`,
        [p.tenantId, p.instituteId, p.resellerId],
      );
      return rows.map((row) => ({ ...row, machineId: `flow-${row.flowId}` })) as never[];
    },
  );
}
