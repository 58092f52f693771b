import type { MultipartFile } from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Readable } from 'node:stream';
import { P } from '#machines/permissions.ts';
import type { Db } from '#server/db/client.ts';
import { changeStamp, expectedVersion, setVersionTag, staleEdit } from '#server/lib/concurrency.ts';
import { AppError, badRequest, conflict, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { attachmentDisposition } from '#server/lib/file-types.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { isUniqueViolation } from '#server/modules/exams/workspace-access.ts';
import { MAX_UPLOAD_BYTES, XLSX_MIME } from '#server/modules/users/users-xlsx.ts';
import { buildCenterTemplate, centerErrorFile, importCenters } from './centers-import.ts';
import { findCenter, insertCenters, searchCenters } from './centers-repository.ts';
import * as S from './seasons-schemas.ts';

const tags = ['exam centers'];
const security = [{ bearer: [] }];
/** Centers are tenant-wide: tenant project or exam managers keep them; everyone working on exams reads them. */
const manage = { anyOf: [P.Projects.Manage, P.Exams.Manage] };
export const CENTER_NOT_FOUND = 'Exam center not found.';

function sendXlsx(reply: FastifyReply, fileName: string, body: Buffer | Readable) {
  return reply
    .header('content-type', XLSX_MIME)
    .header('content-disposition', attachmentDisposition(fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(body);
}

const duplicate = (code: string | undefined) => conflict(`An exam center with the code "${code}" already exists.`);

export async function centerRoutes(fastify: FastifyInstance, { db }: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/v1/examcenter/search',
    {
      config: { access: P.Exams.View },
      schema: {
        tags,
        security,
        summary: 'Exam centers of the tenant (keyword on code, name and city; filters: city, state, CBT capable, active, minimum capacity)',
        body: S.CenterSearchBody,
        response: { 200: S.PagedResult(S.Center) },
      },
    },
    async (request) => searchCenters(db, requirePrincipal(request).tenantId, request.body),
  );

  app.post(
    '/v1/examcenter',
    {
      config: { access: manage },
      schema: { tags, security, summary: 'Create an exam center', body: S.CreateCenterBody, response: { 201: S.Center } },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const b = request.body;
      let id: number;
      try {
        [id] = await insertCenters(db, p.tenantId, p.userId, [
          {
            code: b.code,
            name: b.name.trim(),
            address: b.address?.trim() ?? '',
            city: b.city.trim(),
            state: b.state?.trim() ?? '',
            capacity: b.capacity,
            cbtCapable: b.cbtCapable ?? false,
            contactName: b.contactName?.trim() ?? '',
            contactPhone: b.contactPhone?.trim() ?? '',
            contactEmail: b.contactEmail?.trim() ?? '',
            isActive: b.isActive ?? true,
          },
        ]);
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(b.code);
        throw error;
      }
      const center = (await findCenter(db, p.tenantId, id))!;
      setVersionTag(reply, center.version);
      return reply.status(201).send(center);
    },
  );

  app.get(
    '/v1/examcenter/:id',
    { config: { access: P.Exams.View }, schema: { tags, security, summary: 'An exam center', params: S.IdParams, response: { 200: S.Center } } },
    async (request, reply) => {
      const center = await findCenter(db, requirePrincipal(request).tenantId, request.params.id);
      if (!center) throw notFound(CENTER_NOT_FOUND);
      setVersionTag(reply, center.version);
      return center;
    },
  );

  app.put(
    '/v1/examcenter/:id',
    {
      config: { access: manage },
      schema: {
        tags,
        security,
        summary: 'Edit an exam center (optimistic: version or If-Match). Its capacity cannot go below the seats a season has given it.',
        params: S.IdParams,
        body: S.EditCenterBody,
        response: { 200: S.Center },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const current = await findCenter(db, p.tenantId, request.params.id);
      if (!current) throw notFound(CENTER_NOT_FOUND);
      const version = expectedVersion(request, request.body.version);
      const b = request.body;
      if (b.name !== undefined && !b.name.trim()) throw ValidationFailure.field('name', 'The name cannot be blank.');
      if (b.city !== undefined && !b.city.trim()) throw ValidationFailure.field('city', 'The city cannot be blank.');
      if (b.capacity !== undefined) {
        const { rows } = await db.query<{ seats: number; season: string }>(
          `select sc.seats, s.name as season from season_centers sc join seasons s on s.id = sc.season_id
           where sc.center_id = $1 and s.status <> 'Completed' order by sc.seats desc limit 1`,
          [current.centerId],
        );
        if (rows[0] && rows[0].seats > b.capacity) {
          throw ValidationFailure.field('capacity', `The season "${rows[0].season}" gives this center ${rows[0].seats} seats: lower them there first.`);
        }
      }
      let updated;
      try {
        updated = await db.query(
          `update exam_centers set code = coalesce($3, code), name = coalesce($4, name), address = coalesce($5, address), city = coalesce($6, city),
                  state = coalesce($7, state), capacity = coalesce($8, capacity), cbt_capable = coalesce($9, cbt_capable),
                  contact_name = coalesce($10, contact_name), contact_phone = coalesce($11, contact_phone), contact_email = coalesce($12, contact_email),
                  is_active = coalesce($13, is_active), version = version + 1, updated_by = $14, updated_at = now()
           where id = $1 and version = $2`,
          [
            current.centerId,
            version,
            b.code ?? null,
            b.name?.trim() ?? null,
            b.address?.trim() ?? null,
            b.city?.trim() ?? null,
            b.state?.trim() ?? null,
            b.capacity ?? null,
            b.cbtCapable ?? null,
            b.contactName?.trim() ?? null,
            b.contactPhone?.trim() ?? null,
            b.contactEmail?.trim() ?? null,
            b.isActive ?? null,
            p.userId,
          ],
        );
      } catch (error) {
        if (isUniqueViolation(error)) throw duplicate(b.code);
        throw error;
      }
      if (updated.rowCount === 0) throw staleEdit('exam center', (await changeStamp(db, 'exam_centers', current.centerId))!, version);
      const fresh = (await findCenter(db, p.tenantId, current.centerId))!;
      setVersionTag(reply, fresh.version);
      return fresh;
    },
  );

  app.post(
    '/v1/examcenter/template',
    {
      config: { access: manage },
      schema: { tags, security, summary: 'The .xlsx template of the center import (header and one example row)', response: { 200: S.BinaryFile } },
    },
    async (_request, reply) => sendXlsx(reply, 'exam-center-template.xlsx', await buildCenterTemplate()),
  );

  app.post(
    '/v1/examcenter/import',
    {
      config: { access: manage },
      schema: {
        tags,
        security,
        summary: 'Import centers from a filled template (multipart, field "file"): ≤ 5 MB, ≤ 10,000 rows; answers the counts and the refused rows',
        description:
          'Good rows are created; refused rows (with the reason) are in the error file of the import. Existing codes are refused, never overwritten.',
        consumes: ['multipart/form-data'],
        response: { 200: S.CenterImportAnswer },
      },
    },
    async (request) => {
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
      return importCenters(db, p, file);
    },
  );

  app.post(
    '/v1/examcenter/import/:id/errorfile',
    {
      config: { access: manage },
      schema: {
        tags,
        security,
        summary: 'The refused rows of a center import with the reason per row (.xlsx)',
        params: S.IdParams,
        response: { 200: S.BinaryFile },
      },
    },
    async (request, reply) => {
      const file = await centerErrorFile(db, requirePrincipal(request), request.params.id);
      return sendXlsx(reply, file.fileName, file.stream);
    },
  );
}
