import type { MultipartFile } from '@fastify/multipart';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { P } from '#machines/permissions.ts';
import { ticketStatuses, ticketStatusNames } from '#machines/ticket-lifecycle.machine.ts';
import { AppError, badRequest, notFound, ValidationFailure } from '#server/lib/errors.ts';
import { attachmentDisposition } from '#server/lib/file-types.ts';
import { paged } from '#server/lib/paging.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { findBotAnswer } from './tickets-repository.ts';
import * as repo from './tickets-repository.ts';
import * as S from './tickets-schemas.ts';
import { historyFor, toDetail, toDocument, toHistory, toSummary } from './tickets-dto.ts';
import { listTicketDocuments, MAX_DOCUMENT_BYTES, readDocument, removeDocument, uploadDocuments, type UploadedFile } from './tickets-documents.ts';
import {
  applyTransition,
  assertSameUser,
  createTicket,
  editTicket,
  escalateTicket,
  loadInReach,
  staffReach,
  type TicketsDeps,
  type TicketView,
  type TransitionRequest,
} from './tickets-service.ts';

const tags = ['support tickets'];
const security = [{ bearer: [] }];

/** Every endpoint of spec §7 "Support tickets" and "Ticket status" (paths and bodies as spelled there). */
export async function ticketRoutes(fastify: FastifyInstance, deps: TicketsDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  const detail = (request: FastifyRequest, ticketId: number) => toDetail(deps.db, requirePrincipal(request), ticketId);

  async function transition(request: FastifyRequest, ticketId: number, event: TransitionRequest) {
    const p = requirePrincipal(request);
    const result = await applyTransition(deps, p, ticketId, event);
    return {
      ticket: await toDetail(deps.db, p, ticketId),
      fromStatus: result.from,
      toStatus: result.to,
      ...(result.childTicketId ? { childTicketId: result.childTicketId } : {}),
    };
  }

  // ---- raise, read, edit -------------------------------------------------------------------

  app.post(
    '/v1/supportticket',
    {
      config: { access: P.SupportTickets.Create },
      schema: {
        tags,
        security,
        summary: 'Raise a ticket, or escalate one (with parentSupportTicketId)',
        body: S.CreateTicketBody,
        response: { 201: S.TicketDetail, 200: S.TransitionResult },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const body = request.body;
      if (body.parentSupportTicketId) {
        const result = await escalateTicket(deps, p, {
          parentSupportTicketId: body.parentSupportTicketId,
          supportGroupId: body.supportGroupId,
          description: body.description,
        });
        return reply.status(200).send({
          ticket: await toDetail(deps.db, p, body.parentSupportTicketId),
          fromStatus: result.from,
          toStatus: result.to,
          childTicketId: result.childTicketId,
        });
      }
      const missing: Record<string, string[]> = {};
      if (!body.title?.trim()) missing.title = ['The title field is required.'];
      if (!body.description.trim()) missing.description = ['The description field is required.'];
      if (!body.supportTicketPriorityId) missing.supportTicketPriorityId = ['The supportTicketPriorityId field is required.'];
      if (Object.keys(missing).length) throw new ValidationFailure(missing);
      const ticket = await createTicket(deps, p, {
        title: body.title!,
        description: body.description,
        loginUserId: body.loginUserId,
        supportTicketPriorityId: body.supportTicketPriorityId!,
        supportGroupId: body.supportGroupId,
      });
      return reply.status(201).send(await toDetail(deps.db, p, ticket.id));
    },
  );

  app.put(
    '/v1/supportticket',
    {
      config: { access: P.SupportTickets.View },
      schema: {
        tags,
        security,
        summary: 'Edit title, description or priority',
        querystring: S.TicketIdQuery,
        body: S.EditTicketBody,
        response: { 200: S.TicketDetail },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      await editTicket(deps, p, request.query.ticketId, request.body);
      return detail(request, request.query.ticketId);
    },
  );

  for (const [url, view, access] of [
    ['/v1/supportticket', 'requester', P.SupportTickets.View],
    ['/v1/supportticket/byadmin', 'staff', P.SupportTickets.Work],
  ] as const) {
    app.get(
      url,
      {
        config: { access },
        schema: {
          tags,
          security,
          summary: view === 'requester' ? 'A ticket you raised' : 'A ticket in your support reach',
          querystring: S.TicketIdQuery,
          response: { 200: S.TicketDetail },
        },
      },
      async (request) => {
        await loadInReach(deps.db, requirePrincipal(request), request.query.ticketId, view);
        return detail(request, request.query.ticketId);
      },
    );
  }

  app.get(
    '/v1/supportticket/tickethistory',
    {
      config: { access: P.SupportTickets.View },
      schema: {
        tags,
        security,
        summary: 'Every transition, edit, document change and reassignment, in order',
        querystring: S.TicketIdQuery,
        response: { 200: Type.Array(S.HistoryEntry) },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const ticket = await loadInReach(deps.db, p, request.query.ticketId, 'any');
      const history = (await repo.listHistory(deps.db, ticket.id)).map(toHistory);
      return historyFor(deps.db, p, ticket, history);
    },
  );

  // ---- searches and counts ------------------------------------------------------------------

  app.post(
    '/v1/supportticket/searchbyuser',
    {
      config: { access: P.SupportTickets.View },
      schema: { tags, security, summary: 'Your own tickets', body: S.TicketSearchBody, response: { 200: S.TicketPage } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      assertSameUser(p, request.body.userId, 'userId');
      const result = await repo.searchTickets(deps.db, { kind: 'requester', tenantId: p.tenantId, userId: p.userId }, { ...request.body, userId: null });
      return paged(result.rows.map(toSummary), result.total, result.window);
    },
  );

  app.post(
    '/v1/supportticketadmin/search',
    {
      config: { access: P.SupportTickets.Work },
      schema: {
        tags,
        security,
        summary: 'The desk: tickets in the queues of your support groups (every ticket for support admins)',
        body: S.TicketSearchBody,
        response: { 200: S.TicketPage },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const result = await repo.searchTickets(deps.db, staffReach(p)!, request.body);
      return paged(result.rows.map(toSummary), result.total, result.window);
    },
  );

  app.post(
    '/v1/supportticketadmin/searchbyadmin',
    {
      config: { access: P.SupportTickets.Administer },
      schema: { tags, security, summary: 'Support admins: search every ticket of the tenant', body: S.TicketSearchBody, response: { 200: S.TicketPage } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const result = await repo.searchTickets(deps.db, { kind: 'tenant', tenantId: p.tenantId }, request.body);
      return paged(result.rows.map(toSummary), result.total, result.window);
    },
  );

  app.post(
    '/v1/supportticketadmin/ticketsforothers',
    {
      config: { access: P.SupportTickets.Work },
      schema: { tags, security, summary: 'Tickets you raised for someone else', body: S.TicketSearchBody, response: { 200: S.TicketPage } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const result = await repo.searchTickets(deps.db, { kind: 'raisedForOthers', tenantId: p.tenantId, userId: p.userId }, request.body);
      return paged(result.rows.map(toSummary), result.total, result.window);
    },
  );

  const countsOf = (byStatus: Map<number, number>) => ({
    total: [...byStatus.values()].reduce((a, b) => a + b, 0),
    byStatus: ticketStatusNames.map((status) => ({ statusId: ticketStatuses[status], status, count: byStatus.get(ticketStatuses[status]) ?? 0 })),
  });

  app.post(
    '/v1/supportticketstatus/count',
    {
      config: { access: P.SupportTickets.View },
      schema: { tags, security, summary: 'How many of your tickets are in each status', body: Type.Optional(S.CountBody), response: { 200: S.Counts } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const counts = await repo.countByStatus(
        deps.db,
        { kind: 'requester', tenantId: p.tenantId, userId: p.userId },
        { supportGroupId: request.body?.supportGroupId },
      );
      return countsOf(counts);
    },
  );

  app.post(
    '/v1/supportticketstatus/countbyadmin',
    {
      config: { access: P.SupportTickets.Work },
      schema: {
        tags,
        security,
        summary: 'How many tickets in your support reach are in each status',
        body: Type.Optional(S.CountBody),
        response: { 200: S.Counts },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const counts = await repo.countByStatus(deps.db, staffReach(p)!, { supportGroupId: request.body?.supportGroupId, userId: request.body?.userId });
      return countsOf(counts);
    },
  );

  // ---- status changes (each asks the lifecycle machine) ----------------------------------

  app.post(
    '/v1/supportticketstatus/claimticket',
    {
      config: { access: P.SupportTickets.Work },
      schema: { tags, security, summary: 'Claim an Open ticket from your queue', body: S.ClaimBody, response: { 200: S.TransitionResult } },
    },
    async (request) => {
      assertSameUser(requirePrincipal(request), request.body.userId, 'userId');
      return transition(request, request.body.ticketId, { type: 'ticket.claim' });
    },
  );

  app.patch(
    '/v1/supportticketstatus/closeticket=:ticketId',
    {
      config: { access: P.SupportTickets.View },
      schema: {
        tags,
        security,
        summary: 'Close a Resolved ticket',
        params: Type.Object({ ticketId: Type.Integer({ minimum: 1 }) }),
        body: Type.Optional(S.CloseBody),
        response: { 200: S.TransitionResult },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      if (request.body?.ticketId && request.body.ticketId !== request.params.ticketId)
        throw badRequest('The ticketId in the body does not match the one in the path.');
      assertSameUser(p, request.body?.closeByUserId, 'closeByUserId');
      return transition(request, request.params.ticketId, { type: 'ticket.close' });
    },
  );

  app.patch(
    '/v1/supportticket/cancelticket',
    {
      config: { access: P.SupportTickets.View },
      schema: {
        tags,
        security,
        summary: 'Withdraw a ticket (requester or support admin)',
        querystring: S.TicketIdQuery,
        body: S.CancelBody,
        response: { 200: S.TransitionResult },
      },
    },
    async (request) => {
      assertSameUser(requirePrincipal(request), request.body.cancelByUserId, 'cancelByUserId');
      return transition(request, request.query.ticketId, { type: 'ticket.cancel', cancelReason: request.body.cancelReason });
    },
  );

  app.patch(
    '/v1/supportticket/reopenticket',
    {
      config: { access: P.SupportTickets.View },
      schema: {
        tags,
        security,
        summary: 'Reopen a Resolved ticket, or a Closed one within 30 days',
        querystring: S.TicketIdQuery,
        body: S.ReopenBody,
        response: { 200: S.TransitionResult },
      },
    },
    async (request) => {
      assertSameUser(requirePrincipal(request), request.body.reopenByUserId, 'reopenByUserId');
      return transition(request, request.query.ticketId, { type: 'ticket.reopen', reopenReason: request.body.reopenReason });
    },
  );

  app.patch(
    '/v1/supportticket/onholdticket',
    {
      config: { access: P.SupportTickets.Work },
      schema: {
        tags,
        security,
        summary: 'Put an InProgress ticket on hold, with the reason',
        querystring: S.TicketIdQuery,
        body: S.HoldBody,
        response: { 200: S.TransitionResult },
      },
    },
    async (request) => {
      assertSameUser(requirePrincipal(request), request.body.onHoldByUserId, 'onHoldByUserId');
      return transition(request, request.query.ticketId, { type: 'ticket.hold', onHoldReason: request.body.onHoldReason });
    },
  );

  app.put(
    '/v1/supportticketstatus/reassingnticket',
    {
      config: { access: P.SupportTickets.Work },
      schema: {
        tags,
        security,
        summary: 'Reassign to a support group and/or an agent',
        querystring: S.TicketIdQuery,
        body: S.ReassignBody,
        response: { 200: S.TransitionResult },
      },
    },
    async (request) => {
      assertSameUser(requirePrincipal(request), request.body.reAssignedById, 'reAssignedById');
      return transition(request, request.query.ticketId, {
        type: 'ticket.reassign',
        toSupportGroupId: request.body.toSupportGroupId ?? null,
        toSupportUserId: request.body.toSupportUserId ?? null,
      });
    },
  );

  app.patch(
    '/v1/supportticketstatus/status',
    {
      config: { access: P.SupportTickets.Work },
      schema: {
        tags,
        security,
        summary: 'Release (to Open) or resume (to InProgress)',
        querystring: S.TicketIdQuery,
        body: S.StatusBody,
        response: { 200: S.TransitionResult },
      },
    },
    async (request) => {
      const target = request.body.status === 1 || request.body.status === 'Open' ? 'Open' : 'InProgress';
      return transition(request, request.query.ticketId, { type: target === 'Open' ? 'ticket.release' : 'ticket.resume' });
    },
  );

  app.patch(
    '/v1/supportticket/resolveticket',
    {
      config: { access: P.SupportTickets.Work },
      schema: {
        tags,
        security,
        summary: 'Resolve an InProgress ticket with the answer',
        querystring: S.TicketIdQuery,
        body: S.ResolveBody,
        response: { 200: S.TransitionResult },
      },
    },
    async (request) => {
      assertSameUser(requirePrincipal(request), request.body.resolveByUserId, 'resolveByUserId');
      return transition(request, request.query.ticketId, { type: 'ticket.resolve', answer: request.body.answer, reusableAnswer: request.body.reusableAnswer });
    },
  );

  app.put(
    '/v1/supportticketadmin/accept',
    {
      config: { access: P.SupportTickets.Work },
      schema: {
        tags,
        security,
        summary: "Resolve a ticket with the answer bot's suggestion",
        querystring: S.BotAnswerQuery,
        response: { 200: S.TransitionResult },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const bot = await findBotAnswer(deps.db, p.tenantId, request.query.supportTicketBotId);
      if (!bot) throw notFound(`Suggested answer ${request.query.supportTicketBotId} was not found.`);
      await loadInReach(deps.db, p, bot.ticket_id, 'staff').catch(() => {
        throw notFound(`Suggested answer ${request.query.supportTicketBotId} was not found.`);
      });
      return transition(request, bot.ticket_id, { type: 'ticket.acceptBotAnswer', supportTicketBotId: bot.id });
    },
  );

  // ---- documents ---------------------------------------------------------------------------

  for (const [url, view, access] of [
    ['/v1/supportticket/document', 'requester', P.SupportTickets.View],
    ['/v1/supportticket/documentbyadmin', 'staff', P.SupportTickets.Work],
  ] as const) {
    app.get(
      url,
      {
        config: { access },
        schema: { tags, security, summary: 'The documents of a ticket', querystring: S.TicketIdQuery, response: { 200: Type.Array(S.DocumentInfo) } },
      },
      async (request) => (await listTicketDocuments(deps, requirePrincipal(request), request.query.ticketId, view)).map(toDocument),
    );
  }

  for (const [url, view, access] of [
    ['/v1/supportticket/uploaddocument', 'requester', P.SupportTickets.View],
    ['/v1/supportticket/uploaddocumentbyadmin', 'staff', P.SupportTickets.Work],
  ] as const) {
    app.post(
      url,
      {
        config: { access },
        schema: {
          tags,
          security,
          summary: 'Attach documents (multipart: ticketId and up to 5 files, each ≤ 10 MB: PDF, images, Office files or text)',
          consumes: ['multipart/form-data'],
          response: { 201: Type.Array(S.DocumentInfo) },
        },
      },
      async (request, reply) => {
        const { ticketId, files } = await readUpload(request);
        const docs = await uploadDocuments(deps, requirePrincipal(request), ticketId, files, view);
        return reply.status(201).send(docs.map(toDocument));
      },
    );
  }

  for (const [url, view, access] of [
    ['/v1/supportticket/downloaddocument', 'requester', P.SupportTickets.View],
    ['/v1/supportticket/downloaddocumentbyadmin', 'staff', P.SupportTickets.Work],
  ] as const) {
    app.post(
      url,
      {
        config: { access },
        schema: { tags, security, summary: 'Download a document', querystring: S.DocumentIdQuery, response: { 200: S.BinaryFile } },
      },
      async (request, reply) => sendDocument(reply, await readDocument(deps, requirePrincipal(request), request.query.documentId, view)),
    );
  }

  for (const [url, view, access] of [
    ['/v1/supportticket/deletedocument', 'requester', P.SupportTickets.View],
    ['/v1/supportticketadmin/deletedocumentbyadmin', 'staff', P.SupportTickets.Work],
  ] as const) {
    app.delete(
      url,
      {
        config: { access },
        schema: { tags, security, summary: 'Delete a document', querystring: S.DeleteDocumentQuery, response: { 204: Type.Null() } },
      },
      async (request, reply) => {
        await removeDocument(deps, requirePrincipal(request), request.query.SupportTicketDocumentId, view as TicketView);
        return reply.status(204).send(null);
      },
    );
  }
}

function sendDocument(reply: FastifyReply, doc: { file_name: string; content_type: string; content: Uint8Array }) {
  return reply
    .header('content-type', doc.content_type)
    .header('content-disposition', attachmentDisposition(doc.file_name))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(doc.content));
}

/** Reads `ticketId` and the files of a multipart upload, refusing anything that is not one. */
async function readUpload(request: FastifyRequest): Promise<{ ticketId: number; files: UploadedFile[] }> {
  if (!request.isMultipart()) throw new AppError(415, 'Send the documents as multipart/form-data.');
  const files: UploadedFile[] = [];
  let ticketId: number | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: MAX_DOCUMENT_BYTES, files: 5, fields: 10 } })) {
      if (part.type === 'file') {
        const file = part as MultipartFile;
        files.push({ fileName: file.filename, content: await file.toBuffer() });
      } else if (part.fieldname === 'ticketId') {
        ticketId = Number(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'Each document must be at most 10 MB.');
    if (code === 'FST_FILES_LIMIT') throw ValidationFailure.field('file', 'Upload at most 5 files at a time.');
    if (code?.startsWith('FST_')) throw badRequest('The upload could not be read as multipart/form-data.');
    throw error;
  }
  if (!ticketId || !Number.isInteger(ticketId) || ticketId < 1) throw ValidationFailure.field('ticketId', 'The ticketId field is required.');
  return { ticketId, files };
}
