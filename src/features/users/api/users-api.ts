import type { PagedQuery, PagedResult } from '#machines/paged-search.machine.ts';
import { serviceApi } from '#src/lib/http/api.ts';
import { download, upload, type ProgressListener } from '#src/lib/http/transfer.ts';

/**
 * Typed calls of spec §7 "Users and roles", "Bulk upload and export", "User languages" and
 * "Login history", with the shapes of docs/decisions/0040–0045. Every screen shows its own
 * failures, so the calls that feed a form or a list pass `showErrors: false`.
 */
const SERVICE = 'userService';
const api = () => serviceApi(SERVICE);

export interface RoleRef {
  roleId: string;
  roleName: string;
}

export interface UserDetail {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  userName: string;
  phoneNumber: string | null;
  dateOfBirth: string | null;
  loginType: 'local' | 'directory';
  userType: string | null;
  resellerId: string | null;
  instituteId: string | null;
  isActive: boolean;
  emailConfirmed: boolean;
  isFirstTimeLogin: boolean;
  preferredLanguage: string | null;
  roles: RoleRef[];
  createdOn: string;
}

export interface UserRoleEntry {
  roleId: string;
  roleName: string;
  description: string;
  enabled: boolean;
}

export interface RoleSummary {
  id: string;
  name: string;
  description: string;
  isSystem: boolean;
  permissions: string[];
  userCount: number;
}

export interface LoginHistoryRow {
  id: string;
  userId: string | null;
  email: string;
  userName: string | null;
  time: string;
  event: 'login' | 'loginFailed' | 'logout' | 'sessionRevoked' | string;
  outcome: 'success' | 'failure' | string;
  reason: string | null;
  ipAddress: string | null;
  userAgent: string | null;
}

export interface UserLanguage {
  id: string;
  userId: string;
  languageCode: string;
  createdOn: string;
}

export interface UploadJob {
  jobId: string;
  fileName: string;
  state: 'queued' | 'running' | 'finished' | 'failed' | string;
  message: string | null;
  totalRows: number;
  processedRows: number;
  createdCount: number;
  failedCount: number;
  hasErrorFile: boolean;
  uploadedBy: string | null;
  createdOn: string;
  finishedOn: string | null;
}

export interface DirectoryUser {
  userName: string;
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  displayName: string | null;
  alreadyImported: boolean;
}

export interface NewUser {
  firstName?: string;
  lastName?: string;
  email?: string;
  userName: string;
  password?: string;
  confirmPassword?: string;
  phoneNumber?: string | null;
  dateOfBirth?: string | null;
  roleId?: string | null;
  loginType?: 'local' | 'directory';
  isSendInvitation?: boolean;
  redirectUrl?: string;
}

export interface UserEdit {
  id: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  userName?: string;
  phoneNumber?: string | null;
  dateOfBirth?: string | null;
}

export interface RoleDraft {
  name: string;
  description: string;
  permissions: string[];
}

export interface ToggleResult {
  userId: string;
  isActive: boolean;
  emailConfirmed: boolean;
  message: string;
}

/** A "yes" / "no" / "" select value as the filter the server takes. */
export function booleanFilter(value: unknown): boolean | null {
  return value === true || value === 'true' ? true : value === false || value === 'false' ? false : null;
}

/**
 * The users search request (docs/decisions/0040) from a list screen's query. Filters left at
 * "Any" are left out rather than sent as null: the server's validator coerces a null boolean
 * to false, which would show only inactive / unconfirmed users.
 */
export function userSearchBody(query: PagedQuery) {
  const isActive = booleanFilter(query.filters.isActive);
  const emailConfirmed = booleanFilter(query.filters.emailConfirmed);
  const roleId = (query.filters.roleId as string | undefined) || null;
  return {
    keyword: query.keyword.trim() || null,
    pageNumber: query.pageNumber,
    pageSize: query.pageSize,
    orderBy: query.orderBy,
    ...(isActive === null ? {} : { isActive }),
    ...(emailConfirmed === null ? {} : { emailConfirmed }),
    ...(roleId ? { roleId } : {}),
  };
}

const plainSearch = (query: PagedQuery) => ({
  keyword: query.keyword.trim() || null,
  pageNumber: query.pageNumber,
  pageSize: query.pageSize,
  orderBy: query.orderBy,
});

export type LoginHistoryScope = { kind: 'own' } | { kind: 'user'; userId: string } | { kind: 'all' };

export const usersApi = {
  search: (query: PagedQuery) => api().post<PagedResult<UserDetail>>('/users/search', userSearchBody(query), { showErrors: false }),
  get: (id: string) => api().get<UserDetail>(`/users/${encodeURIComponent(id)}`, { showErrors: false }),
  create: (body: NewUser) => api().post<UserDetail>('/users', body, { showErrors: false }),
  edit: (body: UserEdit) => api().put<UserDetail>('/users/edituser', body, { showErrors: false }),
  roles: (id: string) => api().get<UserRoleEntry[]>(`/users/${encodeURIComponent(id)}/roles`, { showErrors: false }),
  setRoles: (id: string, userRoles: Array<{ roleId: string; enabled: boolean }>) =>
    api().post<unknown>(`/users/${encodeURIComponent(id)}/roles`, { userRoles }, { showErrors: false }),
  toggleStatus: (id: string, activateUser: boolean) =>
    api().post<ToggleResult>(`/users/${encodeURIComponent(id)}/toggle-status`, { userId: id, activateUser }, { showErrors: false }),
  toggleEmail: (id: string, activateEmail: boolean) =>
    api().post<ToggleResult>(`/users/${encodeURIComponent(id)}/toggle-email-status`, { userId: id, activateEmail }, { showErrors: false }),
  /** true: the user must choose a new password at the next sign-in (spec §7 updatefirsttimelogin). */
  setFirstTimeLogin: (id: string, isFirstTimeLogin: boolean) =>
    api().post<{ userId: string; isFirstTimeLogin: boolean; message: string }>(
      '/users/updatefirsttimelogin',
      { userId: id, isFirstTimeLogin },
      { showErrors: false },
    ),
  resendInvitation: (id: string) =>
    api().post<{ results: Array<{ userId: string; outcome: 'invitationSent' | 'confirmationSent' | 'nothingToSend' | 'notFound' }> }>(
      '/users/sendinvitationorconfirmation',
      { userIds: [id] },
      { showErrors: false },
    ),
  searchRoles: (query: PagedQuery) => api().post<PagedResult<RoleSummary>>('/roles/search', plainSearch(query), { showErrors: false }),
  /** Every role of the tenant (for the filter and the create dialog). */
  allRoles: () => api().post<PagedResult<RoleSummary>>('/roles/search', { pageNumber: 1, pageSize: 100, orderBy: ['name asc'] }, { showErrors: false }),

  /** Role management (issue 23): custom roles only, never with a permission the caller lacks. */
  createRole: (body: RoleDraft) => api().post<RoleSummary>('/roles', body, { showErrors: false }),
  editRole: (id: string, body: RoleDraft) => api().put<RoleSummary>(`/roles/${encodeURIComponent(id)}`, body, { showErrors: false }),
  retireRole: (id: string) =>
    api().delete<{ message: string; roleId: string; usersAffected: number }>(`/roles/${encodeURIComponent(id)}`, { showErrors: false }),

  loginHistory: (scope: LoginHistoryScope, query: PagedQuery) => {
    const event = (query.filters.event as string | undefined) || null;
    const body = { ...plainSearch(query), ...(event ? { event } : {}) };
    if (scope.kind === 'own') return api().post<PagedResult<LoginHistoryRow>>('/v1/userloginhistory', body, { showErrors: false });
    if (scope.kind === 'user')
      return api().post<PagedResult<LoginHistoryRow>>('/v1/userloginhistory/searchbyuserid', { ...body, userId: scope.userId }, { showErrors: false });
    return api().post<PagedResult<LoginHistoryRow>>('/v1/userloginhistory/search', body, { showErrors: false });
  },

  languages: (userId?: string) => api().post<UserLanguage[]>('/v1/userlanguage/search', userId ? { userId } : {}, { showErrors: false }),
  addLanguage: (languageCode: string, userId?: string) =>
    api().post<UserLanguage>('/v1/userlanguage', userId ? { userId, languageCode } : { languageCode }, { showErrors: false }),
  removeLanguage: (id: string) => api().delete<void>(`/v1/userlanguage/${encodeURIComponent(id)}`, { showErrors: false }),

  /** The roles a user holds now (spec §7 activeroles): oneself, or someone in scope with UserRoles.View. */
  activeRoles: (id: string) =>
    api().get<Array<{ roleId: string; roleName: string; description: string }>>(`/users/${encodeURIComponent(id)}/activeroles`, { showErrors: false }),
  /** One directory entry by its exact user name (spec §7 getusersfromad); 404 when there is none. */
  directoryLookup: (userName: string) =>
    api().get<DirectoryUser>(`/users/getusersfromad?userName=${encodeURIComponent(userName.trim())}`, { showErrors: false }),
  directorySearch: (keyword: string) =>
    api().post<PagedResult<DirectoryUser>>('/users/searchusersfromad', { keyword: keyword.trim() || null, pageNumber: 1, pageSize: 25 }, { showErrors: false }),

  downloadTemplate: (onProgress?: ProgressListener) => download(SERVICE, { url: '/users/downloadusertemplate', data: {}, onProgress, showErrors: false }),
  /** redirectUrl (spec §7 `RedirectUrl`): where the invitees land after the e-mailed link. */
  uploadUsers: (file: File, onProgress?: ProgressListener, redirectUrl?: string | null) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return upload<{ jobId: string; fileName: string; state: string; message: string }>(SERVICE, {
      url: redirectUrl ? `/users/uploadusers?RedirectUrl=${encodeURIComponent(redirectUrl)}` : '/users/uploadusers',
      form,
      onProgress,
      showErrors: false,
    });
  },
  jobs: (query: PagedQuery) =>
    api().post<PagedResult<UploadJob>>('/users/searchuploadedjobstatus', { ...plainSearch(query), orderBy: query.orderBy }, { showErrors: false }),
  downloadErrorFile: (jobId: string, onProgress?: ProgressListener) =>
    download(SERVICE, { url: '/users/downloaderrorfile', data: { jobId }, onProgress, showErrors: false }),
  exportUsers: (query: PagedQuery, onProgress?: ProgressListener) => {
    const { pageNumber: _page, pageSize: _size, ...filters } = userSearchBody(query);
    return download(SERVICE, { url: '/users/downloaduserlist', data: filters, onProgress, showErrors: false });
  },
};
