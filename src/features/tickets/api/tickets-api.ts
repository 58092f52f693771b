import type { PagedQuery, PagedResult } from '#machines/paged-search.machine.ts';
import type { TicketAction, ViewedTicket } from '#machines/ticket-view.machine.ts';
import { serviceApi } from '#src/lib/http/api.ts';
import { download, upload, type ProgressListener } from '#src/lib/http/transfer.ts';

/**
 * Typed calls of spec §7 "Support tickets", "Ticket status" and the support-group API. Support
 * tickets and chat belong to the notification service (its base URL comes from the runtime
 * configuration; every service defaults to /api).
 */
const api = serviceApi('notificationService');
const SERVICE = 'notificationService';

export interface TicketSummary {
  ticketId: number;
  title: string;
  description: string;
  statusId: number;
  status: string;
  supportTicketPriorityId: number;
  supportGroupId: number;
  supportGroupName: string;
  loginUserId: string;
  requesterName: string;
  requesterEmail: string;
  createdBy: string;
  assigneeId: string | null;
  assigneeName: string | null;
  parentSupportTicketId: number | null;
  createdOn: string;
  lastModifiedOn: string;
}

export interface TicketDocument {
  documentId: string;
  supportTicketDocumentId: string;
  ticketId: number;
  fileName: string;
  contentType: string;
  sizeBytes: number;
  uploadedBy: string;
  uploadedByName: string | null;
  uploadedOn: string;
}

export interface TicketDetail extends TicketSummary, ViewedTicket {
  answer: string | null;
  resolvedOn: string | null;
  closedOn: string | null;
  version: number;
  supportTicketBotId: string | null;
  botSuggestion: { supportTicketBotId: string; answer: string; sourceTicketId: number; score: number; accepted: boolean } | null;
  documents: TicketDocument[];
  children: Array<{ ticketId: number; title: string; statusId: number; status: string; supportGroupId: number; supportGroupName: string }>;
}

export interface TicketHistoryEntry {
  id: number;
  event: string;
  fromStatusId: number | null;
  fromStatus: string | null;
  toStatusId: number | null;
  toStatus: string | null;
  actorId: string | null;
  actorName: string | null;
  actorKind: 'user' | 'system';
  reason: string | null;
  details: Record<string, unknown>;
  createdOn: string;
}

export interface TicketCounts {
  total: number;
  byStatus: Array<{ statusId: number; status: string; count: number }>;
}

export interface SupportGroup {
  supportGroupId: number;
  name: string;
  description: string;
  isActive: boolean;
  sortOrder: number;
  memberCount: number;
}

export interface GroupMember {
  userId: string;
  firstName: string;
  lastName: string;
  email: string;
}

export interface Agent extends GroupMember {
  supportGroupIds: number[];
}

/** Which list a search reads: your own, your desk's queues, every ticket (support admins), the ones you raised for others. */
export type TicketListKind = 'mine' | 'desk' | 'all' | 'forOthers';

const searchUrls: Record<TicketListKind, string> = {
  mine: '/v1/supportticket/searchbyuser',
  desk: '/v1/supportticketadmin/search',
  all: '/v1/supportticketadmin/searchbyadmin',
  forOthers: '/v1/supportticketadmin/ticketsforothers',
};

/** The spec's search request from a list screen's query. */
export function searchBody(query: PagedQuery) {
  return {
    keyword: query.keyword.trim() || null,
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    orderBy: query.orderBy,
    statusId: (query.filters.statusId as number | undefined) ?? null,
    supportGroupId: (query.filters.supportGroupId as number | undefined) ?? null,
  };
}

export const ticketsApi = {
  search: (kind: TicketListKind, query: PagedQuery) => api.post<PagedResult<TicketSummary>>(searchUrls[kind], searchBody(query), { showErrors: false }),

  counts: (kind: 'mine' | 'desk', supportGroupId?: number | null) =>
    api.post<TicketCounts>(kind === 'mine' ? '/v1/supportticketstatus/count' : '/v1/supportticketstatus/countbyadmin', {
      supportGroupId: supportGroupId ?? null,
    }),

  get: (ticketId: number, view: 'requester' | 'staff') =>
    api.get<TicketDetail>(view === 'staff' ? '/v1/supportticket/byadmin' : '/v1/supportticket', { params: { ticketId }, showErrors: false }),

  history: (ticketId: number) => api.get<TicketHistoryEntry[]>('/v1/supportticket/tickethistory', { params: { ticketId } }),

  create: (body: { title: string; description: string; supportTicketPriorityId: number; supportGroupId: number; loginUserId?: string | null }) =>
    api.post<TicketDetail>('/v1/supportticket', body, { showErrors: false }),

  /** Sends one lifecycle action (or an edit) to its endpoint; resolves with the updated ticket. */
  async perform(ticketId: number, action: TicketAction, fields: Record<string, unknown>): Promise<TicketDetail> {
    const options = { params: { ticketId }, showErrors: false };
    const text = (name: string) => String(fields[name] ?? '');
    type Result = { ticket: TicketDetail };
    switch (action) {
      case 'ticket.claim':
        return (await api.post<Result>('/v1/supportticketstatus/claimticket', { ticketId }, { showErrors: false })).ticket;
      case 'ticket.release':
        return (await api.patch<Result>('/v1/supportticketstatus/status', { status: 1 }, options)).ticket;
      case 'ticket.resume':
        return (await api.patch<Result>('/v1/supportticketstatus/status', { status: 2 }, options)).ticket;
      case 'ticket.hold':
        return (await api.patch<Result>('/v1/supportticket/onholdticket', { onHoldReason: text('onHoldReason') }, options)).ticket;
      case 'ticket.resolve':
        return (await api.patch<Result>('/v1/supportticket/resolveticket', { answer: text('answer') }, options)).ticket;
      case 'ticket.cancel':
        return (await api.patch<Result>('/v1/supportticket/cancelticket', { cancelReason: text('cancelReason') }, options)).ticket;
      case 'ticket.reopen':
        return (await api.patch<Result>('/v1/supportticket/reopenticket', { reopenReason: text('reopenReason') }, options)).ticket;
      case 'ticket.close':
        return (await api.patch<Result>(`/v1/supportticketstatus/closeticket=${ticketId}`, { ticketId }, { showErrors: false })).ticket;
      case 'ticket.reassign':
        return (
          await api.put<Result>(
            '/v1/supportticketstatus/reassingnticket',
            {
              toSupportGroupId: fields.toSupportGroupId ? Number(fields.toSupportGroupId) : null,
              toSupportGroupName: (fields.toSupportGroupName as string | undefined) ?? null,
              toSupportUserId: (fields.toSupportUserId as string | undefined) || null,
            },
            options,
          )
        ).ticket;
      case 'ticket.escalate':
        return (
          await api.post<Result>(
            '/v1/supportticket',
            { parentSupportTicketId: ticketId, supportGroupId: Number(fields.targetSupportGroupId), description: text('description') },
            { showErrors: false },
          )
        ).ticket;
      case 'ticket.acceptBotAnswer':
        return (
          await api.put<Result>('/v1/supportticketadmin/accept', undefined, { params: { supportTicketBotId: fields.supportTicketBotId }, showErrors: false })
        ).ticket;
      case 'ticket.edit':
        return api.put<TicketDetail>(
          '/v1/supportticket',
          {
            title: fields.title === undefined ? undefined : text('title'),
            description: fields.description === undefined ? undefined : text('description'),
            supportTicketPriorityId: fields.supportTicketPriorityId === undefined ? undefined : Number(fields.supportTicketPriorityId),
          },
          options,
        );
    }
  },

  uploadDocuments: (ticketId: number, files: File[], view: 'requester' | 'staff', onProgress?: ProgressListener) => {
    const form = new FormData();
    form.append('ticketId', String(ticketId));
    for (const file of files) form.append('file', file, file.name);
    return upload<TicketDocument[]>(SERVICE, {
      url: view === 'staff' ? '/v1/supportticket/uploaddocumentbyadmin' : '/v1/supportticket/uploaddocument',
      form,
      onProgress,
    });
  },

  downloadDocument: (documentId: string, view: 'requester' | 'staff', onProgress?: ProgressListener) =>
    download(SERVICE, {
      url: view === 'staff' ? '/v1/supportticket/downloaddocumentbyadmin' : '/v1/supportticket/downloaddocument',
      params: { documentId },
      onProgress,
    }),

  deleteDocument: (documentId: string, view: 'requester' | 'staff') =>
    api.delete<void>(view === 'staff' ? '/v1/supportticketadmin/deletedocumentbyadmin' : '/v1/supportticket/deletedocument', {
      params: { SupportTicketDocumentId: documentId },
    }),
};

export const supportGroupsApi = {
  list: (includeInactive = false) => api.get<SupportGroup[]>('/v1/supportgroup', { params: includeInactive ? { includeInactive } : undefined }),
  mine: () => api.get<SupportGroup[]>('/v1/supportgroup/mine'),
  create: (body: { name: string; description?: string }) => api.post<SupportGroup>('/v1/supportgroup', body, { showErrors: false }),
  update: (id: number, body: { name?: string; description?: string; isActive?: boolean }) =>
    api.put<SupportGroup>(`/v1/supportgroup/${id}`, body, { showErrors: false }),
  members: (id: number) => api.get<GroupMember[]>(`/v1/supportgroup/${id}/members`),
  setMembers: (id: number, userIds: string[]) => api.put<GroupMember[]>(`/v1/supportgroup/${id}/members`, { userIds }, { showErrors: false }),
  agents: () => api.get<Agent[]>('/v1/supportgroup/agents'),
};
