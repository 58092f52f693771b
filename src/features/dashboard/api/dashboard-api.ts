import { serviceApi } from '#src/lib/http/api.ts';

/**
 * The dashboards' aggregate calls (server/modules/dashboard, docs/decisions/0266): global calls
 * of the signed-in user. Every card shows its own failure.
 */
const api = () => serviceApi('notificationService');
const global = { showErrors: false, workspace: 'global' } as const;
const project = { showErrors: false, workspace: 'project' } as const;

export interface TicketLine {
  ticketId: number;
  title: string;
  statusId: number;
  supportGroupName: string;
  createdAt: string;
}
export interface StatusCount {
  statusId: number;
  count: number;
}
export interface MyTickets {
  openCount: number;
  unreadTotal: number;
  tickets: Array<TicketLine & { unreadCount: number; updatedAt: string }>;
}
export interface Queue {
  total: number;
  byStatus: StatusCount[];
}
export interface Waiting {
  total: number;
  tickets: Array<TicketLine & { waitingSince: string }>;
}
export interface NewInGroups {
  total: number;
  tickets: TicketLine[];
}
export interface DeskOverview {
  groups: Array<{ supportGroupId: number; name: string; total: number; byStatus: StatusCount[] }>;
  byStatus: StatusCount[];
  oldestOpen: TicketLine[];
}
export type ResolvedPerDay = Array<{ day: string; count: number }>;

export interface ItemsOverview {
  total: number;
  byStatus: Array<{ status: string; count: number }>;
  languages: Array<{ language: string; count: number }>;
}
export interface PapersOverview {
  total: number;
  byStatus: Array<{ status: string; count: number }>;
}
export type CenterLoad = Array<{
  seasonId: number;
  seasonName: string;
  centerId: number;
  centerName: string;
  city: string;
  capacity: number;
  seats: number;
  registrations: number;
}>;
export type LiveDeliveries = Array<{
  seasonPaperId: number;
  seasonName: string;
  paperTitle: string;
  waiting: number;
  active: number;
  paused: number;
  finished: number;
}>;
export type MarkingProgress = Array<{
  examId: number;
  examName: string;
  scripts: number;
  scriptsMarked: number;
  tasks: number;
  tasksMarked: number;
  evaluators: number;
}>;
export interface MyResults {
  total: number;
  results: Array<{
    resultId: number;
    examName: string;
    paperTitle: string;
    status: string;
    percent: number;
    grade: string | null;
    passed: boolean;
    publishedAt: string | null;
  }>;
}

export interface UsersOverview {
  total: number;
  active: number;
  awaitingConfirmation: number;
  inactive: number;
  locked: number;
}
export interface BulkJobs {
  byState: Array<{ state: string; count: number }>;
  recent: Array<{ jobId: string; fileName: string; state: string; createdAt: string; createdCount: number; failedCount: number; message: string | null }>;
}
export interface DirectoryStatus {
  configured: boolean;
  directoryUsers: number;
  localUsers: number;
}
export interface SignInFailures {
  lastDay: number;
  recent: Array<{ email: string; reason: string | null; occurredAt: string }>;
}

export const dashboardApi = {
  myTickets: () => api().get<MyTickets>('/v1/dashboard/tickets/mine', global),
  queue: () => api().get<Queue>('/v1/dashboard/support/queue', global),
  waiting: () => api().get<Waiting>('/v1/dashboard/support/waiting', global),
  newInGroups: () => api().get<NewInGroups>('/v1/dashboard/support/new', global),
  deskOverview: () => api().get<DeskOverview>('/v1/dashboard/support/overview', global),
  items: () => api().get<ItemsOverview>('/v1/dashboard/exams/items', project),
  papers: () => api().get<PapersOverview>('/v1/dashboard/exams/papers', project),
  centers: () => api().get<CenterLoad>('/v1/dashboard/exams/centers', project),
  deliveries: () => api().get<LiveDeliveries>('/v1/dashboard/exams/deliveries', project),
  marking: () => api().get<MarkingProgress>('/v1/dashboard/exams/marking', project),
  myResults: () => api().get<MyResults>('/v1/dashboard/results/mine', global),
  users: () => api().get<UsersOverview>('/v1/dashboard/admin/users', global),
  bulkJobs: () => api().get<BulkJobs>('/v1/dashboard/admin/jobs', global),
  directory: () => api().get<DirectoryStatus>('/v1/dashboard/admin/directory', global),
  signInFailures: () => api().get<SignInFailures>('/v1/dashboard/admin/sign-in-failures', global),
  resolvedPerDay: (days = 14) => api().get<ResolvedPerDay>(`/v1/dashboard/support/resolved?days=${days}`, global),
};

/** Ticket status ids (machines/ticket-lifecycle.machine.ts) by name, for labels. */
export const statusNames: Record<number, string> = {
  1: 'Open',
  2: 'InProgress',
  3: 'OnHold',
  4: 'Escalated',
  5: 'Resolved',
  6: 'Closed',
  7: 'Cancelled',
};
