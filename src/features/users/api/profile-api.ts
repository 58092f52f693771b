import { serviceApi } from '#src/lib/http/api.ts';
import { upload } from '#src/lib/http/transfer.ts';

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
  /** Whether they uploaded a photo (docs/decisions/0264). */
  hasPhoto?: boolean;
}

/** docs/decisions/0264: an avatar needs no more; the server checks again, by content. */
export const MAX_PHOTO_BYTES = 1024 * 1024;
export const PHOTO_TYPES = 'image/png,image/jpeg,image/webp';

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
  uploadPhoto: (file: File) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return upload<{ mime: string; sizeBytes: number; updatedOn: string }>('userService', { url: '/v1/profile/photo', method: 'PUT', form, showErrors: false });
  },
  removePhoto: () => api().delete<void>('/v1/profile/photo', quiet),
  signIns: (pageSize = 10) => api().post<{ data: SignInEntry[] }>('/v1/profile/loginhistory', { pageNumber: 1, pageSize }, quiet),
};
