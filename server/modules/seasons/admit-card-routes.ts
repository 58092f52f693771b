import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { P } from '#machines/permissions.ts';
import { AppError, conflict, forbidden, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { oneFile } from '#server/lib/one-file.ts';
import { attachmentDisposition, cleanFileName, detectFileType } from '#server/lib/file-types.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { requireWorkspace } from '#server/plugins/workspace-context.ts';
import { assertProjectEvent } from '#server/modules/exams/workspace-access.ts';
import { MAX_UPLOAD_BYTES, XLSX_MIME } from '#server/modules/users/users-xlsx.ts';
import { admitCardPdf, listBatches, queueBatch, type AdmitCardDeps } from './admit-cards.ts';
import { PrintUnavailable } from '#server/modules/papers/paper-print.ts';
import { rollNumber } from './allocation.ts';
import { findRegistration, registrationActor, REGISTRATION_NOT_FOUND } from './registrations-routes.ts';
import { acceptRegistrationUpload, buildRegistrationTemplate, registrationErrorFile, searchRegistrationUploads } from './registrations-bulk.ts';
import { findSeason } from './seasons-repository.ts';
import * as S from './seasons-schemas.ts';

/**
 * The rest of issue 18's server (docs/decisions/0230–0233): admit card PDFs (the candidate's own,
 * and staff's copy), batches that issue a season's cards, the supporting document of a
 * candidate's accommodations, bulk registration from .xlsx, and the project's default roll
 * pattern. Candidate routes are global calls; the rest are project calls (ProjectId).
 */
const tags = ['registrations'];
const security = [{ bearer: [] }];
const projectCall = { description: 'A project call: send the selected project in the ProjectId header.' };
const adminConfig = { access: P.Exams.View, workspace: 'project' as const };
const candidateConfig = { access: P.Dashboard.View };
/** A supporting document: a scan or a photo of a certificate. */
export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;
const DOCUMENT_KINDS = new Set(['pdf', 'png', 'jpeg']);

function sendFile(reply: FastifyReply, mime: string, fileName: string, body: Buffer | Readable) {
  return reply
    .header('content-type', mime)
    .header('content-disposition', attachmentDisposition(fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(body);
}

export async function admitCardRoutes(fastify: FastifyInstance, deps: AdmitCardDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = deps;

  async function pdfAnswer(reply: FastifyReply, registrationId: number) {
    let card;
    try {
      card = await admitCardPdf(deps, registrationId);
    } catch (error) {
      if (error instanceof PrintUnavailable) throw new AppError(503, error.message);
      throw error;
    }
    if (!card) throw conflict('No admit card has been issued for this registration.');
    return sendFile(reply, 'application/pdf', `admit-card-${card.rollNumber}.pdf`.replace(/[^A-Za-z0-9._-]/g, '_'), card.pdf);
  }

  // -- the candidate's own --

  app.get(
    '/v1/registration/mine/:id/admitcard/pdf',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary: 'Your admit card as a PDF (photo placeholder, roll number, papers, center, instructions in your medium, QR code)',
        params: S.IdParams,
        response: { 200: S.PdfBytes },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const row = await findRegistration(db, request.params.id, { tenantId: p.tenantId, candidateId: p.userId });
      if (!row) throw notFound(REGISTRATION_NOT_FOUND);
      if (row.status !== 'AdmitCardIssued')
        throw conflict(`No admit card has been issued for this registration (it is ${row.status}).`, { currentStatus: row.status });
      return pdfAnswer(reply, row.registrationId);
    },
  );

  app.post(
    '/v1/registration/mine/:id/document',
    {
      config: candidateConfig,
      schema: {
        tags,
        security,
        summary:
          'Attach the supporting document of the accommodations you asked for (multipart, field "file": PDF, PNG or JPEG, ≤ 5 MB); replaces an earlier one',
        consumes: ['multipart/form-data'],
        params: S.IdParams,
        response: { 201: S.DocumentInfo },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const row = await findRegistration(db, request.params.id, { tenantId: p.tenantId, candidateId: p.userId });
      if (!row) throw notFound(REGISTRATION_NOT_FOUND);
      if (row.accommodationStatus === 'none') throw conflict('You asked for no accommodations: there is nothing to support.');
      if (row.accommodationStatus !== 'requested') throw conflict(`Your accommodations were already ${row.accommodationStatus}.`);
      const file = await oneFile(request, MAX_DOCUMENT_BYTES, 'The document must be at most 5 MB.');
      const name = cleanFileName(file.fileName, 'document');
      if (file.content.length === 0) throw new AppError(400, `${name} is empty.`);
      const type = detectFileType(file.content);
      if (!type || !DOCUMENT_KINDS.has(type.kind)) throw new AppError(415, `${name} is not a PDF, PNG or JPEG file.`);
      await db.query(
        `insert into registration_documents (registration_id, file_name, mime, size_bytes, content, uploaded_by) values ($1, $2, $3, $4, $5, $6)
         on conflict (registration_id) do update set file_name = excluded.file_name, mime = excluded.mime, size_bytes = excluded.size_bytes,
           content = excluded.content, uploaded_by = excluded.uploaded_by, created_at = now()`,
        [row.registrationId, name, type.mime, file.content.length, file.content, p.userId],
      );
      return reply.status(201).send({ fileName: name, sizeBytes: file.content.length });
    },
  );

  async function sendDocument(reply: FastifyReply, registrationId: number) {
    const { rows } = await db.query<{ fileName: string; mime: string; content: Uint8Array }>(
      `select file_name as "fileName", mime, content from registration_documents where registration_id = $1`,
      [registrationId],
    );
    if (!rows[0]) throw notFound('This registration has no supporting document.');
    return sendFile(reply, rows[0].mime, rows[0].fileName, Buffer.from(rows[0].content));
  }

  app.get(
    '/v1/registration/mine/:id/document',
    {
      config: candidateConfig,
      schema: { tags, security, summary: 'The supporting document you attached', params: S.IdParams, response: { 200: S.BinaryFile } },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const row = await findRegistration(db, request.params.id, { tenantId: p.tenantId, candidateId: p.userId });
      if (!row) throw notFound(REGISTRATION_NOT_FOUND);
      return sendDocument(reply, row.registrationId);
    },
  );

  // -- staff (project calls) --

  async function inReach(request: FastifyRequest, id: number) {
    const p = requirePrincipal(request);
    const workspace = requireWorkspace(request);
    const row = await findRegistration(db, id, { tenantId: p.tenantId, projectId: workspace.project.id });
    if (!row) throw notFound(REGISTRATION_NOT_FOUND);
    return { p, workspace, row, actor: registrationActor(workspace, row.examId) };
  }

  app.get(
    '/v1/registration/:id/document',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'The supporting document of a candidate’s accommodations (for deciding them)',
        ...projectCall,
        params: S.IdParams,
        response: { 200: S.BinaryFile },
      },
    },
    async (request, reply) => {
      const { row, actor } = await inReach(request, request.params.id);
      if (!actor.registrar) throw forbidden('Only the registrar may read supporting documents.');
      return sendDocument(reply, row.registrationId);
    },
  );

  app.get(
    '/v1/registration/:id/admitcard/pdf',
    {
      config: adminConfig,
      schema: { tags, security, summary: 'A candidate’s admit card as issued (PDF)', ...projectCall, params: S.IdParams, response: { 200: S.PdfBytes } },
    },
    async (request, reply) => {
      const { row, actor } = await inReach(request, request.params.id);
      if (!actor.registrar && !actor.centerManager && !actor.invigilator) throw forbidden('You may not read admit cards of this project.');
      if (row.status !== 'AdmitCardIssued')
        throw conflict(`No admit card has been issued for this registration (it is ${row.status}).`, { currentStatus: row.status });
      return pdfAnswer(reply, row.registrationId);
    },
  );

  async function seasonOfProject(request: FastifyRequest, seasonId: number) {
    const workspace = requireWorkspace(request);
    const season = await findSeason(db, workspace.project.id, seasonId);
    if (!season) throw notFound('Season not found.');
    return { workspace, season };
  }

  app.post(
    '/v1/season/:id/admitcards',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'Issue the admit cards of every allocated candidate of the season (or one center) in a batch job: issued, rendered, mailed',
        ...projectCall,
        params: S.IdParams,
        body: S.AdmitBatchBody,
        response: { 202: S.AdmitBatch },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const { workspace, season } = await seasonOfProject(request, request.params.id);
      if (!registrationActor(workspace, null).registrar) throw forbidden('Only the registrar may issue admit cards.');
      if (season.status === 'Completed') throw conflict('This season is Completed: no admit cards are issued any more.', { currentStatus: season.status });
      const batch = await queueBatch(deps, {
        tenantId: p.tenantId,
        projectId: workspace.project.id,
        seasonId: season.seasonId,
        centerId: request.body?.centerId ?? null,
        userId: p.userId,
      });
      return reply.status(202).send(batch);
    },
  );

  app.get(
    '/v1/season/:id/admitcards',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'The season’s admit-card batches, newest first, with counts and the rate (cards per second)',
        ...projectCall,
        params: S.IdParams,
        response: { 200: Type.Array(S.AdmitBatch) },
      },
    },
    async (request) => {
      const { season } = await seasonOfProject(request, request.params.id);
      return listBatches(db, season.seasonId);
    },
  );

  // -- bulk registration --

  app.post(
    '/v1/registration/upload/template',
    {
      config: adminConfig,
      schema: { tags, security, summary: 'The .xlsx template of bulk registration', ...projectCall, response: { 200: S.BinaryFile } },
    },
    async (_request, reply) => sendFile(reply, XLSX_MIME, 'registration-template.xlsx', await buildRegistrationTemplate()),
  );

  app.post(
    '/v1/registration/upload',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'Register candidates from a filled template (multipart, field "file"; ≤ 5 MB, ≤ 10,000 rows): answers 202 with the job',
        description:
          'A project call. The rows are checked and registered by a background job; follow it with /v1/registration/upload/search and download the refused rows with their reasons.',
        consumes: ['multipart/form-data'],
        querystring: S.UploadQuery,
        response: { 202: S.UploadAccepted },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const { workspace, season } = await seasonOfProject(request, request.query.seasonId);
      if (!registrationActor(workspace, null).registrar) throw forbidden('Only the registrar may register candidates in bulk.');
      if (season.status !== 'RegistrationOpen' && season.status !== 'RegistrationClosed')
        throw conflict(`This season is ${season.status}: candidates are registered only while registration is open or just closed.`, {
          currentStatus: season.status,
        });
      const file = await oneFile(request, MAX_UPLOAD_BYTES, 'The file must be at most 5 MB.');
      const answer = await acceptRegistrationUpload(
        deps,
        { tenantId: p.tenantId, projectId: workspace.project.id, seasonId: season.seasonId, userId: p.userId },
        file,
        request.query.approve === true,
      );
      return reply.status(202).send(answer);
    },
  );

  app.post(
    '/v1/registration/upload/search',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'Bulk registration jobs of the project (or a season) with their counts and state',
        ...projectCall,
        body: S.UploadSearchBody,
        response: { 200: S.PagedResult(S.UploadJob) },
      },
    },
    async (request) => searchRegistrationUploads(db, requireWorkspace(request).project.id, request.body),
  );

  app.post(
    '/v1/registration/upload/:id/errorfile',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'The refused rows of a finished bulk registration with the reason per row (.xlsx)',
        ...projectCall,
        params: S.IdParams,
        response: { 200: S.BinaryFile },
      },
    },
    async (request, reply) => {
      const file = await registrationErrorFile(db, requireWorkspace(request).project.id, request.params.id);
      return sendFile(reply, XLSX_MIME, file.fileName, file.stream);
    },
  );

  // -- the project's roll pattern --

  const example = (pattern: string) => rollNumber(pattern, { season: 'MAR27', center: 'AHM-001', seq: 42 });

  app.get(
    '/v1/season/rollpattern',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'The project’s roll-number pattern: the default of its new seasons',
        ...projectCall,
        response: { 200: S.RollPatternAnswer },
      },
    },
    async (request) => {
      const { rows } = await db.query<{ rollPattern: string }>(`select roll_pattern as "rollPattern" from projects where id = $1`, [
        requireWorkspace(request).project.id,
      ]);
      return { rollPattern: rows[0].rollPattern, example: example(rows[0].rollPattern) };
    },
  );

  app.put(
    '/v1/season/rollpattern',
    {
      config: adminConfig,
      schema: {
        tags,
        security,
        summary: 'Set the project’s roll-number pattern ({season}, {center} and one {seq:N}); seasons created from now on take it',
        ...projectCall,
        body: S.RollPatternBody,
        response: { 200: S.RollPatternAnswer },
      },
    },
    async (request) => {
      const workspace = requireWorkspace(request);
      assertProjectEvent(workspace, { type: 'project.configure' });
      if (!registrationActor(workspace, null).registrar) throw forbidden('Only the project admin or an exam manager may set the roll pattern.');
      const pattern = request.body.rollPattern;
      if (!pattern.includes('{season}') || !pattern.includes('{center}') || (pattern.match(/\{seq:/g) ?? []).length !== 1) {
        throw ValidationFailure.field('rollPattern', 'The roll pattern needs {season}, {center} and exactly one {seq:N}, e.g. {season}{center}{seq:5}.');
      }
      await db.query(`update projects set roll_pattern = $2 where id = $1`, [workspace.project.id, pattern]);
      return { rollPattern: pattern, example: example(pattern) };
    },
  );
}
