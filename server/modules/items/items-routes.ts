import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { projectSnapshotAt } from '#machines/exams/project-status.machine.ts';
import { decideFlow, type FlowEvent } from '#machines/exams/review-flow.machine.ts';
import { diffContent } from '#machines/items/item-diff.ts';
import * as R from '#machines/items/item-records.ts';
import { ItemResponseSchema, type ItemContent } from '#machines/items/item-schema.ts';
import { InvalidResponseError, score } from '#machines/items/score.ts';
import { P, type ExamPermission } from '#machines/permissions.ts';
import type { Db, Queryable } from '#server/db/client.ts';
import { changeStamp, expectedVersion, setVersionTag, staleEdit } from '#server/lib/concurrency.ts';
import { AppError, badRequest, conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace, type Workspace } from '#server/plugins/workspace-context.ts';
import { projectPermissions } from '#server/modules/exams/workspace-access.ts';
import { deriveFields, plainText, prepareContent } from './item-content.ts';
import {
  addHistory,
  createdOnOf,
  findDuplicates,
  findItemRow,
  insertItem,
  itemFlow,
  ITEM_NOT_FOUND,
  refreshDuplicate,
  searchItems,
  toSummary,
  updatedByOf,
  versionContent,
  type ItemFlow,
  type ItemRow,
} from './items-repository.ts';

const tags = ['items'];
const security = [{ bearer: [] }];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header (docs/decisions/0123).' };
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 999_999_999_999_999 }) });
const VersionParams = Type.Object({ id: IdParams.properties.id, number: Type.Integer({ minimum: 1, maximum: 1_000_000 }) });
const VersionIdParams = Type.Object({ versionId: IdParams.properties.id });
const DiffQuery = Type.Object({ from: Type.Integer({ minimum: 1, maximum: 1_000_000 }), to: Type.Integer({ minimum: 1, maximum: 1_000_000 }) });

/** Who writes items: the project's admins and item authors (tenant project managers hold both). */
const AUTHORS: readonly ExamPermission[] = ['ProjectAdmin', 'ItemAuthor'];
/** Who may comment: anyone working on items. */
const ITEM_WORKERS: readonly ExamPermission[] = ['ProjectAdmin', 'ItemAuthor', 'ItemReviewer'];

const REVIEW_EVENTS: Record<Exclude<R.ReviewAction, 'comment'>, FlowEvent['type']> = {
  submit: 'flow.submit',
  approve: 'flow.approve',
  requestChanges: 'flow.requestChanges',
  retire: 'flow.retire',
};
const ACTION_WORDS: Record<Exclude<R.ReviewAction, 'comment'>, [string, string]> = {
  submit: ['submit', 'be submitted for review'],
  approve: ['approve', 'be approved'],
  requestChanges: ['request changes to', 'have changes requested'],
  retire: ['retire', 'be retired'],
};

export function assertProjectOpen(workspace: Workspace) {
  if (!projectSnapshotAt(workspace.project.status).hasTag('configurable')) {
    throw conflict(`A project in status ${workspace.project.status} cannot change its items.`, { currentStatus: workspace.project.status });
  }
}

export function assertAuthor(workspace: Workspace) {
  assertProjectOpen(workspace);
  const held = projectPermissions(workspace);
  if (!AUTHORS.some((permission) => held.includes(permission))) throw forbidden('Only item authors and project admins write items.');
}

function flowPermissions(flow: ItemFlow | null): ExamPermission[] {
  if (!flow) return [];
  return [flow.definition.submitPermission, flow.definition.retirePermission, ...flow.definition.stages.map((s) => s.permission)];
}

function mayComment(workspace: Workspace, flow: ItemFlow | null): boolean {
  const held = projectPermissions(workspace);
  return [...ITEM_WORKERS, ...flowPermissions(flow)].some((permission) => held.includes(permission));
}

/** The review actions the compiled flow accepts from the caller now (and comment when allowed). */
export function reviewActions(workspace: Workspace, flow: ItemFlow | null, status: string): R.ReviewAction[] {
  const actions: R.ReviewAction[] = [];
  if (flow && projectSnapshotAt(workspace.project.status).hasTag('configurable')) {
    const by = projectPermissions(workspace);
    for (const [action, type] of Object.entries(REVIEW_EVENTS) as Array<[Exclude<R.ReviewAction, 'comment'>, FlowEvent['type']]>) {
      if (decideFlow(flow.machine, status, { type, by, comment: 'x' } as FlowEvent).accepted) actions.push(action);
    }
  }
  if (status !== 'Retired' && mayComment(workspace, flow)) actions.push('comment');
  return actions;
}

export async function toRecord(db: Queryable, workspace: Workspace, row: ItemRow, languages?: readonly string[]): Promise<R.ItemRecord> {
  const langs = languages ?? workspace.project.languages;
  const flow = await itemFlow(db, workspace.project.id, row.flowId);
  const content = await versionContent(db, row.versionId);
  return {
    ...toSummary(row, langs),
    versionId: row.versionId,
    content,
    flowId: row.flowId,
    editable: row.status === 'Draft' || row.status === 'Approved',
    editCreatesVersion: row.status === 'Approved',
    actions: reviewActions(workspace, flow, row.status),
    updatedBy: updatedByOf(row),
    createdOn: createdOnOf(row),
  };
}

async function itemInProject(db: Queryable, workspace: Workspace, id: number, lock = false): Promise<ItemRow> {
  const row = await findItemRow(db, workspace.project.id, id, lock);
  if (!row) throw notFound(ITEM_NOT_FOUND);
  return row;
}

export async function checkCategory(db: Queryable, projectId: number, categoryId: number, field = 'categoryId') {
  const { rows } = await db.query<{ name: string; isRetired: boolean }>(
    `select name, is_retired as "isRetired" from categories where id = $1 and project_id = $2`,
    [categoryId, projectId],
  );
  if (!rows[0]) throw ValidationFailure.field(field, `Category ${categoryId} is not a category of this project.`);
  if (rows[0].isRetired) throw ValidationFailure.field(field, `"${rows[0].name}" is retired: items cannot be filed under it.`);
}

async function checkItemType(db: Queryable, projectId: number, itemTypeId: number, kind: string) {
  const { rows } = await db.query<{ kind: string; name: string; isActive: boolean }>(
    `select kind, name, is_active as "isActive" from item_types where id = $1 and project_id = $2`,
    [itemTypeId, projectId],
  );
  if (!rows[0]) throw ValidationFailure.field('itemTypeId', `Item type ${itemTypeId} is not an item type of this project.`);
  if (!rows[0].isActive) throw ValidationFailure.field('itemTypeId', `The item type "${rows[0].name}" is retired.`);
  if (rows[0].kind !== kind)
    throw ValidationFailure.field('itemTypeId', `The item type "${rows[0].name}" is for ${rows[0].kind} items; the content is ${kind}.`);
}

/** Media of an item point at category files of its own project (or at none yet). */
async function checkMedia(db: Queryable, projectId: number, content: ItemContent) {
  const ids = [...new Set(content.media.map((m) => m.categoryFileId).filter((id): id is string => id !== null))];
  if (!ids.length) return;
  const bad = ids.find((id) => !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id));
  if (bad) throw ValidationFailure.field('content.media', `"${bad}" is not a category file id.`);
  const { rows } = await db.query<{ id: string }>(`select id::text as id from category_files where project_id = $1 and id = any($2::uuid[])`, [projectId, ids]);
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw ValidationFailure.field('content.media', `Category file ${missing[0]} is not a file of this project.`);
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';
const duplicateCode = (code: string) => conflict(`An item with the code "${code}" already exists in this project.`);

function send(reply: FastifyReply, record: R.ItemRecord) {
  setVersionTag(reply, record.version);
  return record;
}

/** Checks a response against the kind-independent shape (TypeBox; Ajv would coerce it). */
function checkResponse(value: unknown) {
  if (value === undefined) return null;
  if (!Value.Check(ItemResponseSchema, value)) {
    throw ValidationFailure.field(
      'responses',
      'responses must be an option id, a list of ids, true/false, a number or text, text by gap id, [left, right] pairs, or null.',
    );
  }
  return value;
}

export interface ReviewOutcome {
  fromStatus: string;
  toStatus: string;
}

/**
 * One review action on one item, in the caller's transaction: the compiled flow decides
 * (docs/decisions/0092); refusals are 403 (the caller) / 409 (the status) / 400 (no comment).
 */
export async function applyReview(
  tx: Queryable,
  workspace: Workspace,
  userId: string,
  row: ItemRow,
  action: R.ReviewAction,
  comment: string | undefined,
): Promise<ReviewOutcome> {
  const flow = await itemFlow(tx, workspace.project.id, row.flowId);
  const text = comment?.trim() ?? '';
  if (action === 'comment') {
    if (!mayComment(workspace, flow)) throw forbidden('Only item authors, reviewers and project admins comment on items.');
    if (row.status === 'Retired') throw conflict('A retired item takes no more comments.', { currentStatus: row.status });
    if (!text) throw ValidationFailure.field('comment', 'Write the comment.');
    await addHistory(tx, row.itemId, row.versionNumber, 'comment', null, null, text, userId);
    return { fromStatus: row.status, toStatus: row.status };
  }
  assertProjectOpen(workspace);
  if (!flow) throw conflict('The project has no item flow: a project admin adds one under Flows before items can be reviewed.');
  const by = projectPermissions(workspace);
  const type = REVIEW_EVENTS[action];
  const decision = decideFlow(flow.machine, row.status, { type, by, comment: text } as FlowEvent);
  const [verb, passive] = ACTION_WORDS[action];
  if (!decision.accepted) {
    if (decision.reason === 'fields') throw ValidationFailure.field('comment', 'Say what should change: a comment is required to request changes.');
    if (decision.reason === 'permission') {
      throw forbidden(
        `You may not ${verb} this item while it is ${row.status === 'Draft' ? 'a draft' : `at ${stageName(flow, row.status)}`}: the item flow gives that to ${neededPermission(flow, action, row.status)}.`,
      );
    }
    if (decision.reason === 'unknownStage') throw conflict(`The item is at "${row.status}", which its flow no longer has.`, { currentStatus: row.status });
    throw conflict(`An item in status ${row.status} cannot ${passive}.`, { currentStatus: row.status });
  }
  const approving = decision.to === 'Approved';
  await tx.query(
    `update items set status = $2, flow_id = $3, version = version + 1, updated_by = $4, updated_at = now(),
            approved_version_id = case when $5 then latest_version_id else approved_version_id end
     where id = $1`,
    [row.itemId, decision.to, flow.flowId, userId, approving],
  );
  if (approving)
    await tx.query(`update item_versions set approved_at = now(), approved_by = $2 where id = $1 and approved_at is null`, [row.versionId, userId]);
  await addHistory(tx, row.itemId, row.versionNumber, action, decision.from, decision.to, text, userId);
  return { fromStatus: decision.from, toStatus: decision.to };
}

function stageName(flow: ItemFlow, status: string) {
  const stage = flow.definition.stages.find((s) => s.id === status);
  return stage ? `stage "${stage.name}"` : status;
}

function neededPermission(flow: ItemFlow, action: Exclude<R.ReviewAction, 'comment'>, status: string): string {
  if (action === 'submit') return flow.definition.submitPermission;
  if (action === 'retire') return flow.definition.retirePermission;
  return flow.definition.stages.find((s) => s.id === status)?.permission ?? 'the stage’s reviewers';
}

export async function itemRoutes(fastify: FastifyInstance, { db }: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const view = { access: P.Projects.View, workspace: 'project' as const };

  app.post(
    '/v1/item/search',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'The item list: filters, text search, paging and totalCount (one statement)',
        ...projectCall,
        body: R.ItemSearchBody,
        response: { 200: R.ItemPage },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const languages = workspace.project.languages;
      const page = await searchItems(db, workspace.project.id, request.body);
      return { ...page, data: page.data.map((row) => toSummary(row, languages)) };
    },
  );

  app.post(
    '/v1/item',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'Create an item (Draft, version 1); its HTML is sanitized when stored',
        ...projectCall,
        body: R.CreateItemBody,
        response: { 201: R.ItemRecord },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      assertAuthor(workspace);
      const body = request.body;
      const content = prepareContent(body.content);
      await checkMedia(db, workspace.project.id, content);
      await checkCategory(db, workspace.project.id, body.categoryId);
      if (body.itemTypeId) await checkItemType(db, workspace.project.id, body.itemTypeId, content.kind);
      const languages = workspace.project.languages;
      const flow = await itemFlow(db, workspace.project.id, null);
      let id: number;
      try {
        id = await db.transaction((tx) =>
          insertItem(
            tx,
            { tenantId: p.tenantId, projectId: workspace.project.id, userId: p.userId },
            { ...body, content, flowId: flow?.flowId ?? null },
            languages,
          ),
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateCode(body.code ?? '');
        throw error;
      }
      const row = await itemInProject(db, workspace, id);
      reply.status(201);
      return send(reply, await toRecord(db, workspace, row, languages));
    },
  );

  app.get(
    '/v1/item/:id',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'An item with its latest version and the review actions open to you',
        ...projectCall,
        params: IdParams,
        response: { 200: R.ItemRecord },
      },
    },
    async (request, reply) => {
      const workspace = requireWorkspace(request);
      return send(reply, await toRecord(db, workspace, await itemInProject(db, workspace, request.params.id)));
    },
  );

  app.put(
    '/v1/item/:id',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'Edit an item (optimistic): a draft changes in place; an approved item gets a new draft version; in review or retired it is a 409',
        ...projectCall,
        params: IdParams,
        body: R.EditItemBody,
        response: { 200: R.ItemRecord },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const body = request.body;
      await itemInProject(db, workspace, request.params.id);
      assertAuthor(workspace);
      const version = expectedVersion(request, body.version);
      const content = body.content ? prepareContent(body.content) : undefined;
      if (content) await checkMedia(db, workspace.project.id, content);
      if (body.categoryId) await checkCategory(db, workspace.project.id, body.categoryId);
      const languages = workspace.project.languages;
      try {
        await db.transaction(async (tx) => {
          const row = await itemInProject(tx, workspace, request.params.id, true);
          if (row.version !== version) throw staleEdit('item', (await changeStamp(tx, 'items', row.itemId))!, version);
          if (row.status === 'Retired') throw conflict('A retired item cannot be edited.', { currentStatus: row.status });
          if (content && content.kind !== row.kind)
            throw ValidationFailure.field('content.kind', `The item is ${row.kind}; its kind cannot change (create a new item).`);
          if (content && row.itemTypeId) await checkItemType(tx, workspace.project.id, row.itemTypeId, content.kind);
          let status = row.status;
          let versionNumber = row.versionNumber;
          if (content) {
            const current = await versionContent(tx, row.versionId);
            const changed = diffContent(current, content).length > 0;
            if (changed && row.status !== 'Draft' && row.status !== 'Approved') {
              throw conflict(`The item is in review (${row.status}): a reviewer requests changes before it can be edited.`, { currentStatus: row.status });
            }
            if (changed) {
              const code = body.code ?? row.code;
              const derived = deriveFields(content, code, languages);
              const { rows: approved } = await tx.query<{ approved: boolean }>(`select approved_at is not null as approved from item_versions where id = $1`, [
                row.versionId,
              ]);
              if (approved[0].approved) {
                versionNumber += 1;
                status = 'Draft';
                await tx.query(
                  `with v as (insert into item_versions (item_id, number, content, languages, created_by) values ($1, $2, $3, $4, $5) returning id)
                   update items set latest_version_id = (select id from v), version_number = $2, status = 'Draft' where id = $1`,
                  [row.itemId, versionNumber, JSON.stringify(content), derived.languages, p.userId],
                );
                await addHistory(
                  tx,
                  row.itemId,
                  versionNumber,
                  'newVersion',
                  row.status,
                  'Draft',
                  `Version ${versionNumber} started from the approved version ${row.versionNumber}.`,
                  p.userId,
                );
              } else {
                await tx.query(`update item_versions set content = $2, languages = $3 where id = $1`, [
                  row.versionId,
                  JSON.stringify(content),
                  derived.languages,
                ]);
                await addHistory(tx, row.itemId, versionNumber, 'edit', null, null, '', p.userId);
              }
              await tx.query(`update items set languages = $2, search_text = $3, primary_language = $4, primary_stem = $5, max_score = $6 where id = $1`, [
                row.itemId,
                derived.languages,
                derived.searchText,
                derived.primaryLanguage,
                derived.primaryStem,
                derived.maxScore,
              ]);
              await refreshDuplicate(tx, workspace.project.id, row.itemId, derived.primaryLanguage, derived.primaryStem);
            }
          }
          if (body.code && body.code !== row.code) {
            const derived = deriveFields(content ?? (await versionContent(tx, row.versionId)), body.code, languages);
            await tx.query(`update items set search_text = $2 where id = $1`, [row.itemId, derived.searchText]);
          }
          await tx.query(
            `update items set code = coalesce($2, code), category_id = coalesce($3, category_id), difficulty = coalesce($4, difficulty),
                    cognitive_level = case when $5 then $6 else cognitive_level end, status = $7,
                    version = version + 1, updated_by = $8, updated_at = now()
             where id = $1`,
            [
              row.itemId,
              body.code ?? null,
              body.categoryId ?? null,
              body.difficulty ?? null,
              body.cognitiveLevel !== undefined,
              body.cognitiveLevel ?? null,
              status,
              p.userId,
            ],
          );
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicateCode(body.code ?? '');
        throw error;
      }
      return send(reply, await toRecord(db, workspace, await itemInProject(db, workspace, request.params.id), languages));
    },
  );

  // ---- versions ---------------------------------------------------------------------------------

  type VersionRow = {
    versionId: number;
    versionNumber: number;
    itemId: number;
    content?: ItemContent;
    languages: string[];
    approvedOn: string | Date | null;
    approvedById: string | null;
    approvedByName: string | null;
    createdById: string | null;
    createdByName: string | null;
    createdOn: string | Date;
    latest: boolean;
    itemStatus: string;
  };
  const versionColumns = (withContent: boolean) => `v.id::int as "versionId", v.number as "versionNumber", v.item_id::int as "itemId", v.languages,
    v.approved_at as "approvedOn", v.approved_by as "approvedById", nullif(trim(coalesce(ap.first_name, '') || ' ' || coalesce(ap.last_name, '')), '') as "approvedByName",
    v.created_by as "createdById", nullif(trim(coalesce(cr.first_name, '') || ' ' || coalesce(cr.last_name, '')), '') as "createdByName", v.created_at as "createdOn",
    (i.latest_version_id = v.id) as latest, i.status as "itemStatus"${withContent ? ', v.content' : ''}
    from item_versions v join items i on i.id = v.item_id left join users ap on ap.id = v.approved_by left join users cr on cr.id = v.created_by`;
  const versionStatus = (row: VersionRow) => {
    if (row.latest) {
      if (row.itemStatus === 'Retired') return 'retired' as const;
      if (row.itemStatus === 'Approved') return 'approved' as const;
      return row.itemStatus === 'Draft' ? ('draft' as const) : ('inReview' as const);
    }
    return row.approvedOn ? ('approved' as const) : ('superseded' as const);
  };
  const toVersion = (row: VersionRow) => ({
    versionId: row.versionId,
    versionNumber: row.versionNumber,
    status: versionStatus(row),
    approvedOn: row.approvedOn ? new Date(row.approvedOn).toISOString() : null,
    approvedBy: row.approvedById ? { userId: row.approvedById, name: row.approvedByName ?? '' } : null,
    createdBy: row.createdById ? { userId: row.createdById, name: row.createdByName ?? '' } : null,
    createdOn: new Date(row.createdOn).toISOString(),
    languages: row.languages,
  });

  app.get(
    '/v1/item/:id/versions',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'The versions of an item, newest first',
        ...projectCall,
        params: IdParams,
        response: { 200: Type.Array(R.ItemVersionSummary) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      await itemInProject(db, workspace, request.params.id);
      const { rows } = await db.query<VersionRow>(`select ${versionColumns(false)} where v.item_id = $1 order by v.number desc`, [request.params.id]);
      return rows.map(toVersion);
    },
  );

  async function oneVersion(workspace: Workspace, where: string, params: unknown[]) {
    const { rows } = await db.query<VersionRow>(`select ${versionColumns(true)} where ${where} and i.project_id = $${params.length + 1}`, [
      ...params,
      workspace.project.id,
    ]);
    if (!rows[0]) throw notFound('Version not found.');
    return { ...toVersion(rows[0]), itemId: rows[0].itemId, content: rows[0].content! };
  }

  app.get(
    '/v1/item/:id/versions/:number',
    {
      config: view,
      schema: { tags, security, summary: 'One version of an item with its content', ...projectCall, params: VersionParams, response: { 200: R.ItemVersion } },
    },
    async (request) => oneVersion(requireWorkspace(request), 'v.item_id = $1 and v.number = $2', [request.params.id, request.params.number]),
  );

  app.get(
    '/v1/item/version/:versionId',
    {
      config: view,
      schema: { tags, security, summary: 'A version by its id (the id papers pin)', ...projectCall, params: VersionIdParams, response: { 200: R.ItemVersion } },
    },
    async (request) => oneVersion(requireWorkspace(request), 'v.id = $1', [request.params.versionId]),
  );

  app.get(
    '/v1/item/:id/diff',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'What changed between two versions (paths into the content)',
        ...projectCall,
        params: IdParams,
        querystring: DiffQuery,
        response: { 200: R.ItemDiff },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      await itemInProject(db, workspace, request.params.id);
      const { rows } = await db.query<{ number: number; content: ItemContent }>(
        `select number, content from item_versions where item_id = $1 and number = any($2::int[])`,
        [request.params.id, [request.query.from, request.query.to]],
      );
      const from = rows.find((r) => r.number === request.query.from);
      const to = rows.find((r) => r.number === request.query.to);
      if (!from || !to) throw notFound(`Version ${!from ? request.query.from : request.query.to} of this item was not found.`);
      return { itemId: request.params.id, from: from.number, to: to.number, changes: diffContent(from.content, to.content) };
    },
  );

  // ---- review -------------------------------------------------------------------------------------

  app.get(
    '/v1/item/:id/comments',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'Comments and review history of an item, oldest first',
        ...projectCall,
        params: IdParams,
        response: { 200: Type.Array(R.ItemComment) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      await itemInProject(db, workspace, request.params.id);
      const { rows } = await db.query<{
        commentId: number;
        versionNumber: number;
        action: R.ReviewAction;
        fromStatus: string | null;
        toStatus: string | null;
        text: string;
        byId: string | null;
        byName: string | null;
        at: string;
      }>(
        `select k.id::int as "commentId", k.version_number as "versionNumber", k.action, k.from_status as "fromStatus", k.to_status as "toStatus", k.text,
                k.actor_id as "byId", nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "byName", k.created_at as at
         from item_comments k left join users u on u.id = k.actor_id
         where k.item_id = $1 and k.action in ('submit', 'approve', 'requestChanges', 'retire', 'comment') order by k.id`,
        [request.params.id],
      );
      return rows.map(({ byId, byName, at, ...row }) => ({ ...row, by: byId ? { userId: byId, name: byName ?? '' } : null, at: new Date(at).toISOString() }));
    },
  );

  app.post(
    '/v1/item/:id/review',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: "Review through the project's item flow: submit, approve, request changes (with a comment), retire, or comment",
        ...projectCall,
        params: IdParams,
        body: R.ReviewBody,
        response: { 200: R.ReviewAnswer },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      await itemInProject(db, workspace, request.params.id);
      const outcome = await db.transaction(async (tx) => {
        const row = await itemInProject(tx, workspace, request.params.id, true);
        if (request.body.version !== undefined && request.body.version !== row.version) {
          throw staleEdit('item', (await changeStamp(tx, 'items', row.itemId))!, request.body.version);
        }
        return applyReview(tx, workspace, p.userId, row, request.body.action, request.body.comment);
      });
      const record = await toRecord(db, workspace, await itemInProject(db, workspace, request.params.id));
      setVersionTag(reply, record.version);
      return { ...outcome, record };
    },
  );

  // ---- bulk ---------------------------------------------------------------------------------------

  app.post(
    '/v1/item/bulk',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'Bulk actions on up to 500 items: move to a category, send to review, retire (each item on its own)',
        ...projectCall,
        body: R.BulkBody,
        response: { 200: R.BulkAnswer },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      const { action, itemIds, categoryId } = request.body;
      if (action === 'moveCategory') {
        if (!categoryId) throw ValidationFailure.field('categoryId', 'Choose the category to move the items to.');
        assertAuthor(workspace);
        await checkCategory(db, workspace.project.id, categoryId);
      }
      const results: R.BulkAnswer['results'] = [];
      for (const itemId of itemIds) {
        try {
          const status = await db.transaction(async (tx) => {
            const row = await findItemRow(tx, workspace.project.id, itemId, true);
            if (!row) throw notFound(ITEM_NOT_FOUND);
            if (action === 'moveCategory') {
              if (row.status === 'Retired') throw conflict('A retired item cannot be moved.');
              await tx.query(`update items set category_id = $2, version = version + 1, updated_by = $3, updated_at = now() where id = $1`, [
                itemId,
                categoryId,
                p.userId,
              ]);
              await addHistory(tx, itemId, row.versionNumber, 'move', null, null, `Moved from "${row.categoryName}".`, p.userId);
              return row.status;
            }
            return (await applyReview(tx, workspace, p.userId, row, action, undefined)).toStatus;
          });
          results.push({ itemId, ok: true, status, message: null });
        } catch (error) {
          if (error instanceof AppError) results.push({ itemId, ok: false, status: null, message: error.messages.join(' ') });
          else if (error instanceof ValidationFailure) results.push({ itemId, ok: false, status: null, message: Object.values(error.errors).flat().join(' ') });
          else throw error;
        }
      }
      const succeeded = results.filter((r) => r.ok).length;
      return { succeeded, failed: results.length - succeeded, results };
    },
  );

  // ---- duplicates ---------------------------------------------------------------------------------

  app.post(
    '/v1/item/duplicates',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'Possible duplicates of a stem being written (trigram similarity ≥ 0.6)',
        ...projectCall,
        body: R.DuplicateQueryBody,
        response: { 200: R.DuplicateList },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const stem = plainText(request.body.stem).slice(0, 2000);
      return findDuplicates(db, workspace.project.id, stem, request.body.excludeItemId ?? null, request.body.limit ?? 5);
    },
  );

  app.get(
    '/v1/item/:id/duplicates',
    {
      config: view,
      schema: { tags, security, summary: 'Possible duplicates of a stored item', ...projectCall, params: IdParams, response: { 200: R.DuplicateList } },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const { rows } = await db.query<{ stem: string }>(`select primary_stem as stem from items where id = $1 and project_id = $2`, [
        request.params.id,
        workspace.project.id,
      ]);
      if (!rows[0]) throw notFound(ITEM_NOT_FOUND);
      return findDuplicates(db, workspace.project.id, rows[0].stem, request.params.id, 10);
    },
  );

  // ---- scoring ------------------------------------------------------------------------------------

  app.post(
    '/v1/item/:id/score',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'Score responses with the one scorer (the same module the client previews with)',
        ...projectCall,
        params: IdParams,
        body: R.ScoreBody,
        response: { 200: R.ScoreAnswer },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const row = await itemInProject(db, workspace, request.params.id);
      const responses = checkResponse(request.body.responses);
      let content: ItemContent;
      let versionNumber = row.versionNumber;
      if (request.body.versionNumber && request.body.versionNumber !== row.versionNumber) {
        const { rows } = await db.query<{ content: ItemContent }>(`select content from item_versions where item_id = $1 and number = $2`, [
          row.itemId,
          request.body.versionNumber,
        ]);
        if (!rows[0]) throw notFound(`Version ${request.body.versionNumber} of this item was not found.`);
        content = rows[0].content;
        versionNumber = request.body.versionNumber;
      } else content = await versionContent(db, row.versionId);
      try {
        const result = score(content, responses);
        return {
          score: result.score,
          maxScore: result.maxScore,
          minScore: result.minScore,
          outcome: result.outcome,
          needsHumanMarking: result.needsHumanMarking,
          template: result.template ?? 'marking',
          versionNumber,
        };
      } catch (error) {
        if (error instanceof InvalidResponseError) throw badRequest(`The response does not fit this ${content.kind} item: ${error.message}`);
        throw error;
      }
    },
  );
}
