/** The notification center (issue 21): the list page loads as a route; others may read the kinds' titles. */
export { notificationTitle, groupByDay } from './notification-title.ts';
export { inboxApi, type PreferenceRow } from './api/inbox-api.ts';
export { default as NotificationsPage } from './inbox-page.tsx';
