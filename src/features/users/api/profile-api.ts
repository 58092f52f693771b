import { serviceApi } from '#src/lib/http/api.ts';

/** The signed-in person's own profile (server/modules/profile, docs/decisions/0261). */
const api = () => serviceApi('userService');
const quiet = { showErrors: false } as const;

export interface Profile {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  userName: string;
  phoneNumber: string | null;
  dateOfBirth: string | null;
  preferredLanguage: string | null;
  languages: string[];
  roles: string[];
  editable: string[];
}

export interface Device {
  browser: string | null;
  os: string | null;
  platform: string | null;
}

export interface ProfileSession {
  id: string;
  current: boolean;
  createdOn: string;
  lastUsedOn: string;
  ipAddress: string | null;
  device: Device;
}

export interface SignInEntry {
  id: string;
  time: string;
  event: 'login' | 'loginFailed' | 'logout' | 'sessionRevoked';
  outcome: 'success' | 'failure';
  reason: string | null;
  ipAddress: string | null;
  device: Device;
}

export const profileApi = {
  get: () => api().get<Profile>('/v1/profile', quiet),
  update: (body: Partial<Pick<Profile, 'firstName' | 'lastName' | 'phoneNumber' | 'dateOfBirth'>>) => api().put<Profile>('/v1/profile', body, quiet),
  sessions: () => api().get<{ sessions: ProfileSession[] }>('/v1/profile/sessions', quiet),
  revoke: (id: string) => api().post<{ revoked: number; current: boolean }>(`/v1/profile/sessions/${encodeURIComponent(id)}/revoke`, undefined, quiet),
  revokeOthers: () => api().post<{ revoked: number }>('/v1/profile/sessions/revokeothers', undefined, quiet),
  signIns: (pageSize = 10) => api().post<{ data: SignInEntry[] }>('/v1/profile/loginhistory', { pageNumber: 1, pageSize }, quiet),
};
