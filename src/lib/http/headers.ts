/** Spec §9: the tenant header unauthenticated calls send. */
export const DEFAULT_TENANT = 'root';
/** Spec §7/§9: accept-language when no locale is stored. */
export const DEFAULT_ACCEPT_LANGUAGE = 'en-US';

/**
 * The UTC offset of the user's clock at `date` as ISO 8601, e.g. "+05:30", "-03:00", "+00:00"
 * (docs/decisions/0010). Computed per request, so a change of daylight saving time shows.
 */
export function timeZoneOffset(date: Date = new Date()): string {
  const minutes = -date.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '-';
  const abs = Math.abs(minutes);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export interface HeaderInput {
  /** The access token; null when signed out. */
  token: string | null;
  /** An unauthenticated call (sign-in, forgot password, self-registration …). */
  anonymous: boolean;
  /** An upload: multipart instead of JSON. */
  multipart: boolean;
  /** The stored locale (the localization slice), null when none is stored. */
  language: string | null;
  now: Date;
}

/**
 * The request headers of spec §7. Authenticated calls: bearer token, content type, accept-
 * language, TimeZoneOffset, and nothing at all without a token. Unauthenticated calls:
 * `tenant: root`, content type, accept-language, TimeZoneOffset.
 */
export function requestHeaders({ token, anonymous, multipart, language, now }: HeaderInput): Record<string, string> {
  const common = {
    'Content-Type': multipart ? 'multipart/form-data' : 'application/json',
    'accept-language': language || DEFAULT_ACCEPT_LANGUAGE,
    TimeZoneOffset: timeZoneOffset(now),
  };
  if (anonymous) return { tenant: DEFAULT_TENANT, ...common };
  if (!token) return {};
  return { Authorization: `Bearer ${token}`, ...common };
}

/** The selected project, exam and paper ids (from the selection slices), null when none is selected. */
export interface WorkspaceIds {
  projectId: number | null;
  examId: number | null;
  paperId: number | null;
}

/**
 * Which workspace a call belongs to (spec §3, docs/decisions/0093): a project call sends
 * `ProjectId`; a paper call sends `ExamId` as `examId` or `examId&paperId` (and the project
 * beside it, which the server checks is the exam's); a global call sends neither. Unflagged
 * calls send whatever is selected, which the server ignores on its global routes.
 */
export type WorkspaceScope = 'project' | 'paper' | 'global';

export function workspaceHeaders(ids: WorkspaceIds, scope: WorkspaceScope | undefined): Record<string, string> {
  if (scope === 'global') return {};
  const headers: Record<string, string> = {};
  if (ids.projectId !== null) headers.ProjectId = String(ids.projectId);
  if (scope !== 'project' && ids.examId !== null) headers.ExamId = ids.paperId !== null ? `${ids.examId}&${ids.paperId}` : String(ids.examId);
  return headers;
}

/** The numeric id of a selected record (`projectId`, `examId` … or `id`), or null. */
export function recordIdOf(record: Record<string, unknown> | null | undefined, field: string): number | null {
  if (!record) return null;
  const value = record[field] ?? record.id;
  const id = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
}
