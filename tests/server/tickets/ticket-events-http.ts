import type { FastifyInstance, InjectOptions } from 'fastify';
import type { TicketEventType } from '#machines/ticket-lifecycle.machine.ts';
import { as } from '#tests/setup/test-users.ts';

/** The HTTP call (spec §7) that sends each lifecycle event; childrenDone has none (the system sends it). */
export type HttpTicketEvent = Exclude<TicketEventType, 'ticket.childrenDone'>;

export interface EventFields {
  toSupportGroupId?: number;
  toSupportUserId?: string;
  targetSupportGroupId?: number;
  supportTicketBotId?: string | null;
}

export function eventRequest(type: HttpTicketEvent, ticketId: number, fields: EventFields = {}): InjectOptions {
  switch (type) {
    case 'ticket.claim':
      return { method: 'POST', url: '/api/v1/supportticketstatus/claimticket', payload: { ticketId } };
    case 'ticket.release':
      return { method: 'PATCH', url: `/api/v1/supportticketstatus/status?ticketId=${ticketId}`, payload: { status: 1 } };
    case 'ticket.resume':
      return { method: 'PATCH', url: `/api/v1/supportticketstatus/status?ticketId=${ticketId}`, payload: { status: 2 } };
    case 'ticket.hold':
      return { method: 'PATCH', url: `/api/v1/supportticket/onholdticket?ticketId=${ticketId}`, payload: { onHoldReason: 'Waiting for the candidate' } };
    case 'ticket.reassign':
      return {
        method: 'PUT',
        url: `/api/v1/supportticketstatus/reassingnticket?ticketId=${ticketId}`,
        payload: { toSupportGroupId: fields.toSupportGroupId ?? null, toSupportUserId: fields.toSupportUserId ?? null },
      };
    case 'ticket.escalate':
      return {
        method: 'POST',
        url: '/api/v1/supportticket',
        payload: { parentSupportTicketId: ticketId, supportGroupId: fields.targetSupportGroupId, description: 'Needs exam administration' },
      };
    case 'ticket.resolve':
      return {
        method: 'PATCH',
        url: `/api/v1/supportticket/resolveticket?ticketId=${ticketId}`,
        payload: { answer: 'Fixed on our side.', reusableAnswer: true },
      };
    case 'ticket.acceptBotAnswer':
      return { method: 'PUT', url: `/api/v1/supportticketadmin/accept?supportTicketBotId=${fields.supportTicketBotId}` };
    case 'ticket.close':
      return { method: 'PATCH', url: `/api/v1/supportticketstatus/closeticket=${ticketId}`, payload: { ticketId } };
    case 'ticket.reopen':
      return { method: 'PATCH', url: `/api/v1/supportticket/reopenticket?ticketId=${ticketId}`, payload: { reopenReason: 'Still broken' } };
    case 'ticket.cancel':
      return { method: 'PATCH', url: `/api/v1/supportticket/cancelticket?ticketId=${ticketId}`, payload: { cancelReason: 'No longer needed' } };
    case 'ticket.edit':
      return { method: 'PUT', url: `/api/v1/supportticket?ticketId=${ticketId}`, payload: { title: `Edited at ${Date.now()}` } };
  }
}

export function sendEvent(app: FastifyInstance, user: { token?: string }, type: HttpTicketEvent, ticketId: number, fields?: EventFields) {
  const request = eventRequest(type, ticketId, fields);
  return app.inject({ ...request, headers: { ...(request.headers ?? {}), ...as(user) } });
}
