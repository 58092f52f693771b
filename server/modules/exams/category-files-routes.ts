import type { MultipartFile } from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { projectSnapshotAt } from '#machines/exams/project-status.machine.ts';
import { P, type ExamPermission } from '#machines/permissions.ts';
import type { Db } from '#server/db/client.ts';
import { AppError, badRequest, conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { attachmentDisposition, cleanFileName, describeKinds, detectFileType, type FileKind } from '#server/lib/file-types.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace, type Workspace } from '#server/plugins/workspace-context.ts';
import * as S from './exams-schemas.ts';
import { projectPermissions } from './workspace-access.ts';

/** The bytes as stored, under the type checked at upload (documented for OpenAPI; a Buffer is sent as is). */
const FileBytes = {
  description: 'The file',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
};

/**
 * Category files (EXAMS.md §2): stimulus images, audio, PDFs and passage texts filed under a
 * category, checked by content (magic bytes, never the client's type or name), ≤ 10 MB, kept
 * in PostgreSQL. Served with the detected type, Content-Disposition, nosniff and a sandboxing
 * CSP, so nothing uploaded runs in the portal's origin (docs/decisions/0096).
 */
export const MAX_CATEGORY_FILE_BYTES = 10 * 1024 * 1024;
export const MAX_FILES_PER_CATEGORY = 200;
export const allowedCategoryFileKinds: readonly FileKind[] = ['png', 'jpeg', 'gif', 'webp', 'mp3', 'wav', 'ogg', 'pdf', 'text'];
/** Shown in the page (images, audio); everything else is a download. */
const inlineKinds = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'audio/mpeg', 'audio/wav', 'audio/ogg']);
/** Anything opened from the API is inert: no scripts, no plugins, no same-origin access. */
export const CATEGORY_FILE_CSP = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'; sandbox";

const FILE_NOT_FOUND = 'File not found.';
const tags = ['category files'];
const security = [{ bearer: [] }];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };
const uploaders: readonly ExamPermission[] = ['ProjectAdmin', 'ItemAuthor', 'PaperSetter'];

const CategoryFile = Type.Object({
  fileId: Type.String({ format: 'uuid' }),
  categoryId: S.RecordId,
  fileName: Type.String(),
  contentType: Type.String(),
  sizeBytes: Type.Integer(),
  uploadedBy: Type.Union([Type.Object({ userId: Type.String(), name: Type.String() }), Type.Null()]),
  uploadedOn: Type.String({ format: 'date-time' }),
});
const FileIdParams = Type.Object({ id: Type.String({ format: 'uuid' }) });

/** Authors, paper setters and project admins add and remove files while the project is not closed. */
function assertMayChangeFiles(workspace: Workspace) {
  if (!projectSnapshotAt(workspace.project.status).hasTag('configurable')) {
    throw conflict(`A project in status ${workspace.project.status} cannot change its files.`, { currentStatus: workspace.project.status });
  }
  const held = projectPermissions(workspace);
  if (!uploaders.some((permission) => held.includes(permission))) throw forbidden('Only item authors, paper setters and project admins manage category files.');
}

const fileColumns = `f.id as "fileId", f.category_id::int as "categoryId", f.file_name as "fileName", f.content_type as "contentType", f.size_bytes as "sizeBytes",
  f.uploaded_by as "uploadedById", nullif(trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')), '') as "uploadedByName", f.created_at as "uploadedOn"`;
type FileRow = {
  fileId: string;
  categoryId: number;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  uploadedById: string | null;
  uploadedByName: string | null;
  uploadedOn: string;
};
const toFile = ({ uploadedById, uploadedByName, ...row }: FileRow) => ({
  ...row,
  uploadedBy: uploadedById ? { userId: uploadedById, name: uploadedByName ?? '' } : null,
  uploadedOn: new Date(row.uploadedOn).toISOString(),
});

async function readUpload(request: FastifyRequest): Promise<{ categoryId: number; files: Array<{ fileName: string | undefined; content: Buffer }> }> {
  if (!request.isMultipart()) throw new AppError(415, 'Send the files as multipart/form-data.');
  const files: Array<{ fileName: string | undefined; content: Buffer }> = [];
  let categoryId: number | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_CATEGORY_FILE_BYTES, files: 5, fields: 5 } })) {
      if (part.type === 'file') files.push({ fileName: (part as MultipartFile).filename, content: await (part as MultipartFile).toBuffer() });
      else if (part.fieldname === 'categoryId') categoryId = Number(part.value);
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'Each file must be at most 10 MB.');
    if (code === 'FST_FILES_LIMIT') throw ValidationFailure.field('file', 'Upload at most 5 files at a time.');
    if (code?.startsWith('FST_')) throw badRequest('The upload could not be read as multipart/form-data.');
    throw error;
  }
  if (!categoryId || !Number.isSafeInteger(categoryId) || categoryId < 1) throw ValidationFailure.field('categoryId', 'The categoryId field is required.');
  if (!files.length) throw ValidationFailure.field('file', 'Choose at least one file to upload.');
  return { categoryId, files };
}

export async function categoryFileRoutes(fastify: FastifyInstance, { db }: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/categoryfile',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'Upload files under a category (multipart: categoryId and up to 5 files, each ≤ 10 MB: images, audio, PDF or text)',
        ...projectCall,
        consumes: ['multipart/form-data'],
        response: { 201: Type.Array(CategoryFile) },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const workspace = requireWorkspace(request);
      assertMayChangeFiles(workspace);
      const { categoryId, files } = await readUpload(request);
      const checked = files.map((file, index) => {
        const name = cleanFileName(file.fileName, `file-${index + 1}`);
        if (file.content.length === 0) throw ValidationFailure.field('file', `${name} is empty.`);
        const type = detectFileType(file.content);
        if (!type || !allowedCategoryFileKinds.includes(type.kind)) {
          throw new AppError(415, `${name} is not an allowed file type. Allowed: ${describeKinds(allowedCategoryFileKinds)}.`);
        }
        return { name, type, content: file.content };
      });
      const rows = await db.transaction(async (tx) => {
        const { rows: category } = await tx.query<{ isRetired: boolean; name: string; files: number }>(
          `select is_retired as "isRetired", name, (select count(*)::int from category_files where category_id = c.id) as files
           from categories c where c.id = $1 and c.project_id = $2 for update`,
          [categoryId, workspace.project.id],
        );
        if (!category[0]) throw notFound('Category not found.');
        if (category[0].isRetired) throw conflict(`"${category[0].name}" is retired: files cannot be added to it.`);
        if (category[0].files + checked.length > MAX_FILES_PER_CATEGORY) {
          throw ValidationFailure.field('file', `A category holds at most ${MAX_FILES_PER_CATEGORY} files; it has ${category[0].files}.`);
        }
        const ids: string[] = [];
        for (const file of checked) {
          const { rows: inserted } = await tx.query<{ id: string }>(
            `insert into category_files (tenant_id, project_id, category_id, file_name, content_type, size_bytes, content, uploaded_by)
             values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
            [p.tenantId, workspace.project.id, categoryId, file.name, file.type.mime, file.content.length, file.content, p.userId],
          );
          ids.push(inserted[0].id);
        }
        const { rows: created } = await tx.query<FileRow>(
          `select ${fileColumns} from category_files f left join users u on u.id = f.uploaded_by where f.id = any($1::uuid[]) order by f.created_at, f.file_name`,
          [ids],
        );
        return created;
      });
      return reply.status(201).send(rows.map(toFile));
    },
  );

  app.get(
    '/v1/categoryfile',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'Files of a category (or of the whole project without categoryId), newest first',
        ...projectCall,
        querystring: Type.Object({ categoryId: Type.Optional(S.RecordId) }),
        response: { 200: Type.Array(CategoryFile) },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      const { rows } = await db.query<FileRow>(
        `select ${fileColumns} from category_files f left join users u on u.id = f.uploaded_by
         where f.project_id = $1 and ($2::bigint is null or f.category_id = $2) order by f.created_at desc, f.id limit 1000`,
        [workspace.project.id, request.query.categoryId ?? null],
      );
      return rows.map(toFile);
    },
  );

  app.get(
    '/v1/categoryfile/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: {
        tags,
        security,
        summary: 'Download a file (images and audio inline, the rest as an attachment; sandboxed)',
        ...projectCall,
        params: FileIdParams,
        response: { 200: FileBytes },
      },
    },
    async (request, reply) => {
      const workspace = requireWorkspace(request);
      const { rows } = await db.query<{ fileName: string; contentType: string; content: Uint8Array }>(
        `select file_name as "fileName", content_type as "contentType", content from category_files where id = $1 and project_id = $2`,
        [request.params.id, workspace.project.id],
      );
      const file = rows[0];
      if (!file) throw notFound(FILE_NOT_FOUND);
      const disposition = attachmentDisposition(file.fileName);
      return reply
        .type(file.contentType === 'text/plain' ? 'text/plain; charset=utf-8' : file.contentType)
        .header('content-disposition', inlineKinds.has(file.contentType) ? disposition.replace(/^attachment/, 'inline') : disposition)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', CATEGORY_FILE_CSP)
        .header('cache-control', 'private, no-store')
        .send(Buffer.from(file.content));
    },
  );

  app.delete(
    '/v1/categoryfile/:id',
    {
      config: { access: P.Projects.View, workspace: 'project' },
      schema: { tags, security, summary: 'Delete a file', ...projectCall, params: FileIdParams, response: { 200: S.Deleted } },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      assertMayChangeFiles(workspace);
      const { rowCount } = await db.query(`delete from category_files where id = $1 and project_id = $2`, [request.params.id, workspace.project.id]);
      if (rowCount === 0) throw notFound(FILE_NOT_FOUND);
      return { deleted: true };
    },
  );
}
