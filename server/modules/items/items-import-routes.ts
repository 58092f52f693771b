import type { MultipartFile } from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import * as R from '#machines/items/item-records.ts';
import { P } from '#machines/permissions.ts';
import type { Db } from '#server/db/client.ts';
import { AppError, badRequest, conflict, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { attachmentDisposition } from '#server/lib/file-types.ts';
import { QtiExportError } from '#server/lib/items/qti-export.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace } from '#server/plugins/workspace-context.ts';
import { XLSX_MIME } from '#server/modules/users/users-xlsx.ts';
import { acceptImport, exportItems, findImport, importErrorFile, listImports, MAX_IMPORT_BYTES } from './items-import.ts';
import { ITEM_NOT_FOUND } from './items-repository.ts';
import { assertAuthor, checkCategory } from './items-routes.ts';
import { buildItemTemplate } from './items-xlsx.ts';

const tags = ['item import and export'];
const security = [{ bearer: [] }];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header (docs/decisions/0123).' };
const binary = (type: string, description: string) => ({ description, content: { [type]: { schema: { type: 'string', format: 'binary' } } } });
const JobParams = Type.Object({ jobId: Type.String({ format: 'uuid' }) });
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 999_999_999_999_999 }) });
const languagePattern = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;
const MAX_EXPORT_ITEMS = 5000;

function sendFile(reply: FastifyReply, type: string, fileName: string, body: Buffer) {
  return reply
    .header('content-type', type)
    .header('content-disposition', attachmentDisposition(fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(body);
}

async function readImportUpload(request: FastifyRequest) {
  if (!request.isMultipart()) throw new AppError(415, 'Send the file as multipart/form-data with the fields file, categoryId and (optionally) language.');
  let file: { fileName: string | undefined; content: Buffer } | undefined;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 5, fieldSize: 1000 } })) {
      if (part.type === 'file') file = { fileName: (part as MultipartFile).filename, content: await (part as MultipartFile).toBuffer() };
      else fields[part.fieldname] = String(part.value);
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'The file must be at most 100 MB.');
    if (code === 'FST_FILES_LIMIT') throw ValidationFailure.field('file', 'Upload one file at a time.');
    if (code?.startsWith('FST_')) throw badRequest('The upload could not be read as multipart/form-data.');
    throw error;
  }
  const categoryId = Number(fields.categoryId);
  if (!fields.categoryId || !Number.isSafeInteger(categoryId) || categoryId < 1)
    throw ValidationFailure.field('categoryId', 'The categoryId field is required: the category the items are filed under.');
  const language = (fields.language ?? 'en').trim() || 'en';
  if (!languagePattern.test(language)) throw ValidationFailure.field('language', 'language must be a language tag such as en, hi or gu.');
  if (!file) throw ValidationFailure.field('file', 'Choose the file to import.');
  return { file, categoryId, language };
}

/** Import jobs, the .xlsx template and QTI 3.0 export (docs/decisions/0123, 0124). */
export async function itemImportRoutes(fastify: FastifyInstance, { db, pokeJobs }: { db: Db; pokeJobs(): void }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const view = { access: P.Projects.View, workspace: 'project' as const };

  app.post(
    '/v1/item/import',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'Import items (multipart: file = QTI .xml, IMS .zip or the .xlsx template; categoryId; language): answers 202 with the job',
        ...projectCall,
        consumes: ['multipart/form-data'],
        response: { 202: R.ImportJob },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      assertAuthor(workspace);
      const { file, categoryId, language } = await readImportUpload(request);
      await checkCategory(db, workspace.project.id, categoryId);
      const job = await acceptImport(db, p, workspace.project.id, file, categoryId, language);
      pokeJobs();
      return reply.status(202).send(job);
    },
  );

  app.get(
    '/v1/item/import',
    { config: view, schema: { tags, security, summary: 'Import jobs of the project, newest first (50)', ...projectCall, response: { 200: R.ImportJobList } } },
    async (request) => listImports(db, requireWorkspace(request).project.id),
  );

  app.get(
    '/v1/item/import/:jobId',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'An import job: state, counts and every refused row or unmapped item with its reasons',
        ...projectCall,
        params: JobParams,
        response: { 200: R.ImportJob },
      },
    },
    async (request) => {
      const job = await findImport(db, requireWorkspace(request).project.id, request.params.jobId);
      if (!job) throw notFound('Import not found.');
      return job;
    },
  );

  app.get(
    '/v1/item/import/:jobId/errors',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'The error file of an import (.xlsx): every refused row / unmapped item with its reasons',
        ...projectCall,
        params: JobParams,
        response: { 200: binary(XLSX_MIME, 'The error file') },
      },
    },
    async (request, reply) => {
      const job = await findImport(db, requireWorkspace(request).project.id, request.params.jobId);
      if (!job) throw notFound('Import not found.');
      if (job.state === 'queued' || job.state === 'running') throw conflict('The import is still running; its error file is ready when it is done.');
      return sendFile(reply, XLSX_MIME, `item-import-errors-${job.jobId.slice(0, 8)}.xlsx`, await importErrorFile(job));
    },
  );

  app.get(
    '/v1/item/template',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'The .xlsx template of the item bulk import (columns for the project’s languages, an example per kind)',
        ...projectCall,
        response: { 200: binary(XLSX_MIME, 'The template') },
      },
    },
    async (request, reply) => sendFile(reply, XLSX_MIME, 'item-import-template.xlsx', await buildItemTemplate(requireWorkspace(request).project.languages)),
  );

  async function sendPackage(reply: FastifyReply, projectId: number, ids: number[], fileName: string) {
    try {
      return sendFile(reply, 'application/zip', fileName, await exportItems(db, projectId, ids));
    } catch (error) {
      if (error instanceof QtiExportError) throw conflict(`The package cannot be written: ${error.message}.`);
      throw error;
    }
  }

  app.get(
    '/v1/item/:id/export',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'One item as a QTI 3.0 package (every language variant, its media)',
        ...projectCall,
        params: IdParams,
        response: { 200: binary('application/zip', 'QTI 3.0 content package') },
      },
    },
    async (request, reply) => {
      const workspace = requireWorkspace(request);
      const { rows } = await db.query<{ code: string }>(`select code from items where id = $1 and project_id = $2`, [request.params.id, workspace.project.id]);
      if (!rows[0]) throw notFound(ITEM_NOT_FOUND);
      return sendPackage(reply, workspace.project.id, [request.params.id], `${rows[0].code}.zip`);
    },
  );

  app.post(
    '/v1/item/export',
    {
      config: view,
      schema: {
        tags,
        security,
        summary: 'A selection of items or a category (with its subcategories) as a QTI 3.0 package',
        ...projectCall,
        body: R.ExportBody,
        response: { 200: binary('application/zip', 'QTI 3.0 content package') },
      },
    },
    async (request, reply) => {
      const workspace = requireWorkspace(request);
      const { itemIds, categoryId, includeSubcategories } = request.body;
      if (!itemIds === !categoryId) throw ValidationFailure.field('itemIds', 'Send either itemIds (a selection) or categoryId.');
      let ids: number[];
      if (itemIds) {
        const { rows } = await db.query<{ id: number }>(`select id::int as id from items where project_id = $1 and id = any($2::bigint[])`, [
          workspace.project.id,
          itemIds,
        ]);
        if (rows.length !== itemIds.length) throw notFound(`${itemIds.length - rows.length} of the items were not found.`);
        ids = rows.map((r) => r.id);
      } else {
        const { rows: exists } = await db.query(`select 1 from categories where id = $1 and project_id = $2`, [categoryId, workspace.project.id]);
        if (!exists.length) throw notFound('Category not found.');
        const { rows } = await db.query<{ id: number }>(
          includeSubcategories === false
            ? `select id::int as id from items where project_id = $1 and category_id = $2 and status <> 'Retired'`
            : `select id::int as id from items where project_id = $1 and status <> 'Retired' and category_id in (with recursive sub(id) as (select id from categories where id = $2 and project_id = $1
               union all select k.id from categories k join sub on k.parent_id = sub.id) select id from sub)`,
          [workspace.project.id, categoryId],
        );
        if (!rows.length) throw notFound('The category holds no items to export.');
        if (rows.length > MAX_EXPORT_ITEMS)
          throw badRequest(`A package holds at most ${MAX_EXPORT_ITEMS} items; the category has ${rows.length}. Export its subcategories one by one.`);
        ids = rows.map((r) => r.id);
      }
      return sendPackage(reply, workspace.project.id, ids, 'items-qti3.zip');
    },
  );
}
