/**
 * /account/notifications: the notification center's page (src/features/inbox), filed beside the
 * profile so its route entry costs the first render of / as little as possible (decision 0262).
 */
export { NotificationsPage as default } from '#src/features/inbox/index.ts';
