import { Type, type Static } from 'typebox';
import { PagedResult, searchRequestProperties } from '#server/lib/paging.ts';

const Uuid = Type.String({ format: 'uuid' });
const TicketId = Type.Integer({ minimum: 1, maximum: 9_007_199_254_740_991, description: 'Ticket number' });
const StatusId = Type.Integer({ minimum: 1, maximum: 7, description: '1 Open, 2 InProgress, 3 OnHold, 4 Escalated, 5 Resolved, 6 Closed, 7 Cancelled' });
const PriorityId = Type.Integer({ minimum: 1, maximum: 4, description: '1 Low, 2 Medium, 3 High, 4 Urgent' });
const GroupId = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });
const Reason = (name: string) => Type.String({ minLength: 1, maxLength: 2000, description: name });
const NullableUuid = Type.Optional(Type.Union([Uuid, Type.Null()]));
const Timestamp = Type.String({ format: 'date-time' });

export const TicketIdQuery = Type.Object({ ticketId: TicketId });
export const DocumentIdQuery = Type.Object({ documentId: Uuid });
export const DeleteDocumentQuery = Type.Object({ SupportTicketDocumentId: Uuid });
export const BotAnswerQuery = Type.Object({ supportTicketBotId: Uuid });

export const CreateTicketBody = Type.Object(
  {
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.String({ minLength: 1, maxLength: 20_000 }),
    loginUserId: NullableUuid,
    supportTicketPriorityId: Type.Optional(PriorityId),
    supportGroupId: GroupId,
    parentSupportTicketId: Type.Optional(Type.Union([TicketId, Type.Null()])),
  },
  {
    description:
      'Raise a ticket (title, description, priority and group; loginUserId names the requester when staff raise one for someone else). ' +
      'Escalation sends parentSupportTicketId with the target supportGroupId and a description instead: the parent becomes Escalated and a child ticket opens in that group.',
  },
);
export type CreateTicketBody = Static<typeof CreateTicketBody>;

export const EditTicketBody = Type.Object({
  title: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  description: Type.Optional(Type.String({ minLength: 1, maxLength: 20_000 })),
  supportTicketPriorityId: Type.Optional(PriorityId),
});

export const ClaimBody = Type.Object({ ticketId: TicketId, userId: NullableUuid });
export const CloseBody = Type.Object({ ticketId: Type.Optional(TicketId), closeByUserId: NullableUuid });
export const CancelBody = Type.Object({ cancelByUserId: NullableUuid, cancelReason: Reason('Why the ticket is withdrawn') });
export const ReopenBody = Type.Object({ reopenByUserId: NullableUuid, reopenReason: Reason('Why the ticket needs more work') });
export const HoldBody = Type.Object({ onHoldByUserId: NullableUuid, onHoldReason: Reason('What the ticket is waiting for') });
export const ResolveBody = Type.Object({
  resolveByUserId: NullableUuid,
  answer: Type.String({ minLength: 1, maxLength: 20_000 }),
  reusableAnswer: Type.Optional(
    Type.Boolean({ description: 'true: the answer holds nothing personal and the answer bot may suggest it for similar tickets (default false).' }),
  ),
});
export const ReassignBody = Type.Object(
  {
    toSupportGroupId: Type.Optional(Type.Union([GroupId, Type.Null()])),
    toSupportGroupName: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    toSupportUserId: NullableUuid,
    reAssignedById: NullableUuid,
  },
  { description: 'A group only puts the ticket back in that queue (Open); a user hands it to that agent (InProgress).' },
);
export const StatusBody = Type.Object(
  { status: Type.Union([Type.Literal(1), Type.Literal(2), Type.Literal('Open'), Type.Literal('InProgress')]) },
  { description: 'Release (InProgress → 1 Open) or resume (OnHold → 2 InProgress).' },
);

export const TicketSearchBody = Type.Object({
  ...searchRequestProperties,
  userId: NullableUuid,
  statusId: Type.Optional(Type.Union([StatusId, Type.Null()])),
  supportGroupId: Type.Optional(Type.Union([GroupId, Type.Null()])),
});
export type TicketSearchBody = Static<typeof TicketSearchBody>;

export const CountBody = Type.Object({
  supportGroupId: Type.Optional(Type.Union([GroupId, Type.Null()])),
  userId: NullableUuid,
});

export const TicketSummary = Type.Object({
  ticketId: TicketId,
  title: Type.String(),
  description: Type.String(),
  statusId: StatusId,
  status: Type.String(),
  supportTicketPriorityId: PriorityId,
  supportGroupId: GroupId,
  supportGroupName: Type.String(),
  loginUserId: Uuid,
  requesterName: Type.String(),
  requesterEmail: Type.String(),
  createdBy: Uuid,
  assigneeId: Type.Union([Uuid, Type.Null()]),
  assigneeName: Type.Union([Type.String(), Type.Null()]),
  parentSupportTicketId: Type.Union([TicketId, Type.Null()]),
  createdOn: Timestamp,
  lastModifiedOn: Timestamp,
});

export const DocumentInfo = Type.Object({
  documentId: Uuid,
  supportTicketDocumentId: Uuid,
  ticketId: TicketId,
  fileName: Type.String(),
  contentType: Type.String(),
  sizeBytes: Type.Integer(),
  uploadedBy: Uuid,
  uploadedByName: Type.Union([Type.String(), Type.Null()]),
  uploadedOn: Timestamp,
});

export const TicketDetail = Type.Object({
  ...TicketSummary.properties,
  answer: Type.Union([Type.String(), Type.Null()]),
  resolvedOn: Type.Union([Timestamp, Type.Null()]),
  closedOn: Type.Union([Timestamp, Type.Null()]),
  version: Type.Integer(),
  supportTicketBotId: Type.Union([Uuid, Type.Null()]),
  botSuggestion: Type.Union([
    Type.Object({
      supportTicketBotId: Uuid,
      answer: Type.String(),
      sourceTicketId: Type.Union([TicketId, Type.Null()], { description: 'The ticket the answer comes from; null for the requester.' }),
      score: Type.Number(),
      accepted: Type.Boolean(),
    }),
    Type.Null(),
  ]),
  documents: Type.Array(DocumentInfo),
  children: Type.Array(
    Type.Object({
      ticketId: TicketId,
      title: Type.String(),
      statusId: StatusId,
      status: Type.String(),
      supportGroupId: GroupId,
      supportGroupName: Type.String(),
    }),
  ),
  viewer: Type.Object(
    {
      requester: Type.Boolean(),
      agent: Type.Boolean(),
      assignee: Type.Boolean(),
      supportAdmin: Type.Boolean(),
    },
    { description: 'How the caller relates to the ticket; the client asks the lifecycle machine which actions that allows.' },
  ),
});

export const TransitionResult = Type.Object({
  ticket: TicketDetail,
  fromStatus: Type.String(),
  toStatus: Type.String(),
  childTicketId: Type.Optional(TicketId),
});

export const HistoryEntry = Type.Object({
  id: Type.Integer(),
  event: Type.String({ description: 'ticket.created, ticket.claim … ticket.cancel, ticket.edited, document.added, document.deleted, bot.suggested' }),
  fromStatusId: Type.Union([StatusId, Type.Null()]),
  fromStatus: Type.Union([Type.String(), Type.Null()]),
  toStatusId: Type.Union([StatusId, Type.Null()]),
  toStatus: Type.Union([Type.String(), Type.Null()]),
  actorId: Type.Union([Uuid, Type.Null()]),
  actorName: Type.Union([Type.String(), Type.Null()]),
  actorKind: Type.String({ enum: ['user', 'system'] }),
  reason: Type.Union([Type.String(), Type.Null()]),
  details: Type.Record(Type.String(), Type.Unknown()),
  createdOn: Timestamp,
});

export const Counts = Type.Object({
  total: Type.Integer(),
  byStatus: Type.Array(Type.Object({ statusId: StatusId, status: Type.String(), count: Type.Integer() })),
});

export const TicketPage = PagedResult(TicketSummary, 'A page of tickets');

export const BinaryFile = {
  description: 'The file, as an attachment',
  content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
};
