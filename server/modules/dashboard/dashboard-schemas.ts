import { Type, type Static } from 'typebox';

/** Answers of the dashboards' aggregate calls (issue 21, docs/decisions/0266); they are also their OpenAPI. */

const Iso = Type.String({ format: 'date-time' });
const StatusId = Type.Integer({ minimum: 1, maximum: 7, description: '1 Open, 2 InProgress, 3 OnHold, 4 Escalated, 5 Resolved, 6 Closed, 7 Cancelled' });

export const StatusCount = Type.Object({ statusId: StatusId, count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

export const TicketLine = Type.Object(
  {
    ticketId: Type.Integer(),
    title: Type.String(),
    statusId: StatusId,
    supportGroupName: Type.String(),
    createdAt: Iso,
  },
  { additionalProperties: false },
);

export const MyTickets = Type.Object(
  {
    openCount: Type.Integer({ minimum: 0, description: 'Your tickets not yet resolved (Open, InProgress, OnHold, Escalated).' }),
    unreadTotal: Type.Integer({ minimum: 0, description: 'Chat messages of others on them that you have not read.' }),
    tickets: Type.Array(Type.Object({ ...TicketLine.properties, unreadCount: Type.Integer({ minimum: 0 }), updatedAt: Iso }, { additionalProperties: false }), {
      description: 'Up to five: those with unread replies first, then the last changed.',
    }),
  },
  { additionalProperties: false },
);
export type MyTickets = Static<typeof MyTickets>;

export const Queue = Type.Object(
  { total: Type.Integer({ minimum: 0 }), byStatus: Type.Array(StatusCount, { description: 'Every status, zero included.' }) },
  { additionalProperties: false },
);
export type Queue = Static<typeof Queue>;

export const Waiting = Type.Object(
  {
    total: Type.Integer({ minimum: 0 }),
    tickets: Type.Array(Type.Object({ ...TicketLine.properties, waitingSince: Iso }, { additionalProperties: false }), {
      description: 'Up to five, the longest waiting first.',
    }),
  },
  { additionalProperties: false },
);
export type Waiting = Static<typeof Waiting>;

export const NewInGroups = Type.Object(
  { total: Type.Integer({ minimum: 0 }), tickets: Type.Array(TicketLine, { description: 'Up to five, newest first.' }) },
  { additionalProperties: false },
);
export type NewInGroups = Static<typeof NewInGroups>;

export const DeskOverview = Type.Object(
  {
    groups: Type.Array(
      Type.Object(
        { supportGroupId: Type.Integer(), name: Type.String(), total: Type.Integer({ minimum: 0 }), byStatus: Type.Array(StatusCount) },
        { additionalProperties: false },
      ),
    ),
    byStatus: Type.Array(StatusCount, { description: 'Every status over all groups, zero included.' }),
    oldestOpen: Type.Array(TicketLine, { description: 'Up to five tickets not yet resolved, the oldest first.' }),
  },
  { additionalProperties: false },
);
export type DeskOverview = Static<typeof DeskOverview>;

export const ResolvedQuery = Type.Object(
  { days: Type.Optional(Type.Integer({ minimum: 1, maximum: 90, default: 14, description: 'How many days back, today included (UTC days).' })) },
  { additionalProperties: false },
);
export const ResolvedPerDay = Type.Array(
  Type.Object({ day: Type.String({ format: 'date' }), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }),
  { description: 'One row per day, the oldest first, days without a resolution included.' },
);
export type ResolvedPerDay = Static<typeof ResolvedPerDay>;

const NamedCount = Type.Object({ status: Type.String(), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false });

export const ItemsOverview = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'Items of the project, retired ones left out.' }),
    byStatus: Type.Array(NamedCount, { description: 'Every status that has items (Draft, a stage of the flow, Approved, Retired).' }),
    languages: Type.Array(Type.Object({ language: Type.String(), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }), {
      description: 'Per language of the project: how many of its items (retired ones left out) have it.',
    }),
  },
  { additionalProperties: false },
);
export type ItemsOverview = Static<typeof ItemsOverview>;

export const PapersOverview = Type.Object(
  { total: Type.Integer({ minimum: 0 }), byStatus: Type.Array(NamedCount, { description: 'Draft, Review, Locked, Published; zero included.' }) },
  { additionalProperties: false },
);
export type PapersOverview = Static<typeof PapersOverview>;

export const CenterLoad = Type.Array(
  Type.Object(
    {
      seasonId: Type.Integer(),
      seasonName: Type.String(),
      centerId: Type.Integer(),
      centerName: Type.String(),
      city: Type.String(),
      capacity: Type.Integer({ description: "The center's capacity." }),
      seats: Type.Integer({ description: 'Seats the season was given at the center.' }),
      registrations: Type.Integer({ description: 'Registrations allocated to the center in the season.' }),
    },
    { additionalProperties: false },
  ),
  { description: 'Every center of the seasons not yet completed or cancelled, the fullest first.' },
);
export type CenterLoad = Static<typeof CenterLoad>;

export const LiveDeliveries = Type.Array(
  Type.Object(
    {
      seasonPaperId: Type.Integer(),
      seasonName: Type.String(),
      paperTitle: Type.String(),
      waiting: Type.Integer(),
      active: Type.Integer(),
      paused: Type.Integer(),
      finished: Type.Integer({ description: 'Submitted, TimeUp or Terminated.' }),
    },
    { additionalProperties: false },
  ),
  { description: 'Season papers with a delivery still waiting, active or paused: a sitting under way.' },
);
export type LiveDeliveries = Static<typeof LiveDeliveries>;

export const UsersOverview = Type.Object(
  {
    total: Type.Integer({ minimum: 0 }),
    active: Type.Integer({ minimum: 0, description: 'Active, e-mail confirmed.' }),
    awaitingConfirmation: Type.Integer({ minimum: 0, description: 'Active, e-mail not yet confirmed.' }),
    inactive: Type.Integer({ minimum: 0 }),
    locked: Type.Integer({ minimum: 0, description: 'Locked out now after repeated sign-in failures.' }),
  },
  { additionalProperties: false },
);
export type UsersOverview = Static<typeof UsersOverview>;

export const BulkJobs = Type.Object(
  {
    byState: Type.Array(Type.Object({ state: Type.String(), count: Type.Integer({ minimum: 0 }) }, { additionalProperties: false }), {
      description: 'User bulk uploads of your scope by state: queued, running, finished, failed.',
    }),
    recent: Type.Array(
      Type.Object(
        {
          jobId: Type.String(),
          fileName: Type.String(),
          state: Type.String(),
          createdAt: Iso,
          createdCount: Type.Integer({ minimum: 0 }),
          failedCount: Type.Integer({ minimum: 0 }),
          message: Type.Union([Type.String(), Type.Null()]),
        },
        { additionalProperties: false },
      ),
      { description: 'The five newest user bulk uploads.' },
    ),
  },
  { additionalProperties: false },
);
export type BulkJobs = Static<typeof BulkJobs>;

export const DirectoryStatus = Type.Object(
  {
    configured: Type.Boolean({ description: 'A directory (LDAP) is configured for this server.' }),
    directoryUsers: Type.Integer({ minimum: 0, description: 'Users who sign in through the directory.' }),
    localUsers: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type DirectoryStatus = Static<typeof DirectoryStatus>;

export const SignInFailures = Type.Object(
  {
    lastDay: Type.Integer({ minimum: 0, description: 'Failed sign-ins in the last 24 hours.' }),
    recent: Type.Array(
      Type.Object({ email: Type.String(), reason: Type.Union([Type.String(), Type.Null()]), occurredAt: Iso }, { additionalProperties: false }),
      { description: 'The five latest failed sign-ins.' },
    ),
  },
  { additionalProperties: false },
);
export type SignInFailures = Static<typeof SignInFailures>;

export const MyResults = Type.Object(
  {
    total: Type.Integer({ minimum: 0, description: 'All your published results.' }),
    results: Type.Array(
      Type.Object(
        {
          resultId: Type.Integer(),
          examName: Type.String(),
          paperTitle: Type.String(),
          status: Type.String({ description: 'Published, ReevaluationRequested or Revised.' }),
          percent: Type.Number(),
          grade: Type.Union([Type.String(), Type.Null()]),
          passed: Type.Boolean(),
          publishedAt: Type.Union([Iso, Type.Null()]),
        },
        { additionalProperties: false },
      ),
      { description: 'The five most recently published.' },
    ),
  },
  { additionalProperties: false },
);
export type MyResults = Static<typeof MyResults>;

export const MarkingProgress = Type.Array(
  Type.Object(
    {
      examId: Type.Integer(),
      examName: Type.String(),
      scripts: Type.Integer({ minimum: 0, description: "The exam's scripts (one per submitted delivery)." }),
      scriptsMarked: Type.Integer({ minimum: 0, description: 'Scripts with no marking task left open (a script marked by the machine alone counts).' }),
      tasks: Type.Integer({ minimum: 0, description: 'Marking tasks of the exam, every round.' }),
      tasksMarked: Type.Integer({ minimum: 0 }),
      evaluators: Type.Integer({ minimum: 0, description: 'Evaluators who have marked at least one task.' }),
    },
    { additionalProperties: false },
  ),
  { description: "The selected project's exams with scripts, those with the most left to mark first (at most 10)." },
);
export type MarkingProgress = Static<typeof MarkingProgress>;
