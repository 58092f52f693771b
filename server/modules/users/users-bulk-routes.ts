import type { MultipartFile } from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { P } from '#machines/permissions.ts';
import { AppError, badRequest, ValidationFailure } from '#server/lib/errors.ts';
import { attachmentDisposition } from '#server/lib/file-types.ts';
import { pickMailLanguage } from '#server/mail/mail-language.ts';
import { parseTimeZoneOffset } from '#server/lib/time-zone-offset.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { acceptUpload, buildTemplate, errorFile, searchJobStatus, userListFile, type BulkDeps } from './users-bulk.ts';
import { tenantRoles } from './users-repository.ts';
import * as S from './users-schemas.ts';
import { MAX_UPLOAD_BYTES, XLSX_MIME } from './users-xlsx.ts';

const tags = ['bulk upload and export'];
const security = [{ bearer: [] }];

function sendXlsx(reply: FastifyReply, fileName: string, body: Buffer | Readable) {
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', attachmentDisposition(fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(body);
}

/** Blob calls are often sent without a body; they mean "no filters". */
async function emptyBodyIsEmptyObject(request: FastifyRequest) {
  if (request.body === undefined || request.body === null) request.body = {};
}

/** Spec §7 "Bulk upload and export", under /api. */
export async function usersBulkRoutes(fastify: FastifyInstance, deps: BulkDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const db = deps.identity.db;

  app.post(
    '/users/downloadusertemplate',
    {
      config: { access: P.Users.Import },
      schema: {
        tags,
        security,
        summary: 'The .xlsx template: Users sheet (header, example row, role drop-down) and Roles sheet',
        response: { 200: S.BinaryFile },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const roles = (await tenantRoles(db, p.tenantId)).filter((r) => r.permissions.every((perm) => p.permissions.has(perm)));
      // Issue 23: the headers in the language of the screen that asked (the app sends its UI
      // language as Accept-Language), else en-IN.
      const language = pickMailLanguage(null, request.headers['accept-language']);
      return sendXlsx(
        reply,
        'user-upload-template.xlsx',
        await buildTemplate(
          roles.map((r) => r.name),
          language,
        ),
      );
    },
  );

  app.post(
    '/users/uploadusers',
    {
      config: { access: P.Users.Import },
      schema: {
        tags,
        security,
        summary: 'Upload a filled template (multipart, field "file"): ≤ 5 MB, ≤ 50 MB uncompressed, ≤ 10,000 rows; answers 202 with the job',
        description:
          'The rows are checked and the users created by a background job; follow it with searchuploadedjobstatus. Rows without newPassword ' +
          'get an invitation; rows with newPassword/confirmNewPassword get that password and a confirmation link. RedirectUrl is passed on in the links.',
        consumes: ['multipart/form-data'],
        querystring: S.UploadQuery,
        response: { 202: S.UploadAccepted },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      if (!request.isMultipart()) throw new AppError(415, 'Send the workbook as multipart/form-data with the field "file".');
      let file: { fileName: string | undefined; content: Buffer } | undefined;
      try {
        for await (const part of request.parts({ limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 5 } })) {
          if (part.type === 'file') {
            const upload = part as MultipartFile;
            file = { fileName: upload.filename, content: await upload.toBuffer() };
          }
        }
      } catch (error) {
        const code = (error as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'The file must be at most 5 MB.');
        if (code === 'FST_FILES_LIMIT') throw ValidationFailure.field('file', 'Upload one file at a time.');
        if (code?.startsWith('FST_')) throw badRequest('The upload could not be read as multipart/form-data.');
        throw error;
      }
      if (!file) throw ValidationFailure.field('file', 'Choose the filled template to upload.');
      return reply.status(202).send(await acceptUpload(deps, p, file, request.query.RedirectUrl));
    },
  );

  app.post(
    '/users/searchuploadedjobstatus',
    {
      config: { access: P.Users.Import },
      schema: {
        tags,
        security,
        summary: 'Upload jobs of your tenant and scope with their counts (total, processed, created, failed) and state',
        body: S.JobStatusSearchBody,
        response: { 200: S.JobStatusPage },
      },
    },
    async (request) => searchJobStatus(db, requirePrincipal(request), request.body),
  );

  app.post(
    '/users/downloaderrorfile',
    {
      config: { access: P.Users.Import },
      preValidation: emptyBodyIsEmptyObject,
      schema: {
        tags,
        security,
        summary: 'The refused rows of a finished job with the reason per row (.xlsx); jobId in the body or the query',
        querystring: S.ErrorFileQuery,
        body: S.ErrorFileBody,
        response: { 200: S.BinaryFile },
      },
    },
    async (request, reply) => {
      const jobId = request.body.jobId ?? request.query.jobId;
      if (!jobId) throw ValidationFailure.field('jobId', 'The jobId field is required.');
      const file = await errorFile(db, requirePrincipal(request), jobId);
      return sendXlsx(reply, file.fileName, file.stream);
    },
  );

  app.post(
    '/users/downloaduserlist',
    {
      config: { access: P.Users.Export },
      preValidation: emptyBodyIsEmptyObject,
      schema: {
        tags,
        security,
        summary: 'The users matching the filters of /users/search (no paging, at most 100,000), streamed as .xlsx; formula-like cells escaped',
        body: S.UserSearchBody,
        response: { 200: S.BinaryFile },
      },
    },
    async (request, reply) =>
      // createdOn in the caller's local time (TimeZoneOffset; docs/decisions/0101).
      sendXlsx(reply, 'users.xlsx', userListFile(db, requirePrincipal(request), request.body, parseTimeZoneOffset(request.headers.timezoneoffset))),
  );
}
