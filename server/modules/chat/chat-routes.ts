import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { P } from '#machines/permissions.ts';
import { paged, pageWindow, searchKeyword } from '#server/lib/paging.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { loadInReach } from '#server/modules/tickets/tickets-service.ts';
import * as repo from './chat-repository.ts';
import * as S from './chat-schemas.ts';
import { isReadOnly, markRead, sendMessage, toChatMessage, type ChatDeps } from './chat-service.ts';

const tags = ['support chat'];
const security = [{ bearer: [] }];

/**
 * Spec §7 "Chat": `POST /supportchat` and `POST /supportchat/chatdetails`, plus read markers.
 * Only the requester, the agents of the ticket's group and support admins reach a ticket's
 * chat (everyone else gets 404); it is read-only once the ticket is Closed or Cancelled.
 */
export async function chatRoutes(fastify: FastifyInstance, deps: ChatDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.post(
    '/supportchat',
    {
      config: { access: P.SupportChat.Use },
      schema: {
        tags,
        security,
        summary: 'Send a chat message on a ticket',
        description:
          'Answers 201 only after the message is committed (the acknowledgement). Send a client-generated `messageId` and repeat it on every retry: ' +
          'the message is stored once and every retry gets the same answer (header `idempotent-replay: true`). Reusing an id for a different message: 409. ' +
          'Everyone who may see the ticket gets the message on `/api/hubs/notifications` (kind `chat.message`). 409 once the ticket is Closed or Cancelled.',
        body: S.SendMessageBody,
        response: { 201: S.ChatMessage },
      },
    },
    async (request, reply) => {
      const p = requirePrincipal(request);
      const { message, replayed } = await sendMessage(deps, p, request.body);
      if (replayed) reply.header('idempotent-replay', 'true');
      return reply.status(201).send(message);
    },
  );

  app.post(
    '/supportchat/chatdetails',
    {
      config: { access: P.SupportChat.Use },
      schema: { tags, security, summary: 'A ticket chat, newest page first', body: S.ChatDetailsBody, response: { 200: S.ChatPage } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const ticket = await loadInReach(deps.db, p, request.body.supportTicketId, 'any');
      const window = pageWindow(request.body);
      const result = await repo.pageMessages(deps.db, ticket.id, {
        keyword: searchKeyword(request.body),
        beforeSeq: request.body.beforeSeq,
        limit: window.limit,
        offset: window.offset,
      });
      const [state] = await repo.unreadStates(deps.db, p.tenantId, p.userId, [ticket.id]);
      return {
        ...paged(result.rows.map(toChatMessage), result.total, window),
        lastSeq: state?.last_seq ?? 0,
        lastReadSeq: state?.last_read_seq ?? 0,
        unreadCount: state?.unread_count ?? 0,
        readOnly: isReadOnly(ticket.status_id),
      };
    },
  );

  app.post(
    '/supportchat/markread',
    {
      config: { access: P.SupportChat.Use },
      schema: {
        tags,
        security,
        summary: 'Mark a ticket chat read up to a message',
        description: 'The marker only moves forward. Your other open screens get a `chat.read` push.',
        body: S.MarkReadBody,
        response: { 200: S.UnreadState },
      },
    },
    async (request) => markRead(deps, requirePrincipal(request), request.body.ticketId, request.body.seq),
  );

  app.post(
    '/supportchat/unreadcounts',
    {
      config: { access: P.SupportChat.Use },
      schema: { tags, security, summary: 'Unread chat messages per ticket, for ticket lists', body: S.UnreadCountsBody, response: { 200: S.UnreadCounts } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const rows = await repo.unreadStates(deps.db, p.tenantId, p.userId, [...new Set(request.body.ticketIds)]);
      return {
        items: rows.map((r) => ({ ticketId: r.ticket_id, lastSeq: r.last_seq, lastReadSeq: r.last_read_seq, unreadCount: r.unread_count })),
      };
    },
  );
}
