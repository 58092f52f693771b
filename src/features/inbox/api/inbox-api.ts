import type { NotificationChannel, NotificationDto, NotificationKind } from '#machines/notification-center.machine.ts';
import { serviceApi } from '#src/lib/http/api.ts';

/** The notification center's calls (server/modules/notifications, docs/decisions/0260). Every screen shows its own failures. */
const api = () => serviceApi('notificationService');
const quiet = { showErrors: false } as const;

export interface NotificationPage {
  data: NotificationDto[];
  currentPage: number;
  totalPages: number;
  totalCount: number;
  hasNextPage: boolean;
  unreadCount: number;
}

export interface Marked {
  notification: NotificationDto;
  unreadCount: number;
}

export interface PreferenceRow {
  kind: NotificationKind;
  channel: NotificationChannel;
  defaultChannel: NotificationChannel;
}

export const inboxApi = {
  search: (body: { pageNumber: number; pageSize: number; archived?: boolean }) => api().post<NotificationPage>('/v1/notification/search', body, quiet),
  unreadCount: () => api().get<{ unreadCount: number }>('/v1/notification/unreadcount', quiet),
  markRead: (id: number) => api().post<Marked>(`/v1/notification/${id}/read`, undefined, quiet),
  markAllRead: () => api().post<{ updated: number; unreadCount: number }>('/v1/notification/readall', undefined, quiet),
  archive: (id: number) => api().post<Marked>(`/v1/notification/${id}/archive`, undefined, quiet),
  unarchive: (id: number) => api().post<Marked>(`/v1/notification/${id}/unarchive`, undefined, quiet),
  preferences: () => api().get<{ preferences: PreferenceRow[] }>('/v1/notification/preferences', quiet),
  savePreferences: (preferences: Array<{ kind: NotificationKind; channel: NotificationChannel }>) =>
    api().put<{ preferences: PreferenceRow[] }>('/v1/notification/preferences', { preferences }, quiet),
};
