import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import { notFound, ValidationFailure } from '#server/lib/errors.ts';
import { paged, pageWindow } from '#server/lib/paging.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { defaultChannel, notificationKinds } from './notification-kinds.ts';
import * as repo from './notifications-repository.ts';
import * as S from './notifications-schemas.ts';
import { pushUnreadCount } from './notify.ts';

const tags = ['notifications'];
const security = [{ bearer: [] }];
const notYours = () => notFound('Notification not found.');

/**
 * The notification center (issue 21, docs/decisions/0260): every call is about the caller's own
 * notifications only (another user's id is the same 404 as one that does not exist). Changes of
 * the unread count reach the caller's other screens over the hub (`notification.count`).
 */
export async function notificationRoutes(fastify: FastifyInstance, deps: { db: Db }) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = deps;

  app.post(
    '/v1/notification/search',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Your notifications, newest first (or your archive), with your unread count',
        body: S.NotificationSearchBody,
        response: { 200: S.NotificationPage },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const window = pageWindow(request.body);
      const [{ rows, total }, unreadCount] = await Promise.all([
        repo.pageNotifications(db, p.userId, {
          archived: request.body.archived ?? false,
          unreadOnly: request.body.unreadOnly ?? false,
          limit: window.limit,
          offset: window.offset,
        }),
        repo.unreadCount(db, p.userId),
      ]);
      return { ...paged(rows, total, window), unreadCount };
    },
  );

  app.get(
    '/v1/notification/unreadcount',
    {
      config: { access: 'authenticated' },
      schema: { tags, security, summary: 'How many of your notifications are unread (archived ones not counted)', response: { 200: S.UnreadCount } },
    },
    async (request) => ({ unreadCount: await repo.unreadCount(db, requirePrincipal(request).userId) }),
  );

  const mark = (url: string, change: 'read' | 'unread' | 'archive' | 'unarchive', summary: string) =>
    app.post(
      url,
      {
        config: { access: 'authenticated' },
        schema: { tags, security, summary, params: S.IdParams, response: { 200: S.Marked } },
      },
      async (request) => {
        const p = requirePrincipal(request);
        return db.transaction(async (tx) => {
          const notification = await repo.setMark(tx, p.userId, request.params.id, change);
          if (!notification) throw notYours();
          const unreadCount = await pushUnreadCount(tx, p.tenantId, p.userId);
          return { notification, unreadCount };
        });
      },
    );
  mark('/v1/notification/:id/read', 'read', 'Mark one of your notifications read');
  mark('/v1/notification/:id/unread', 'unread', 'Mark one of your notifications unread again');
  mark('/v1/notification/:id/archive', 'archive', 'Archive one of your notifications (it leaves the list; UNDO is unarchive)');
  mark('/v1/notification/:id/unarchive', 'unarchive', 'Bring an archived notification back to the list (the snackbar’s UNDO)');

  app.post(
    '/v1/notification/readall',
    {
      config: { access: 'authenticated' },
      schema: { tags, security, summary: 'Mark every notification in your list read', response: { 200: S.MarkedAll } },
    },
    async (request) => {
      const p = requirePrincipal(request);
      return db.transaction(async (tx) => {
        const updated = await repo.markAllRead(tx, p.userId);
        const unreadCount = await pushUnreadCount(tx, p.tenantId, p.userId);
        return { updated, unreadCount };
      });
    },
  );

  const preferencesOf = async (userId: string) => {
    const chosen = await repo.preferencesOf(db, userId);
    return { preferences: notificationKinds.map((kind) => ({ kind, channel: chosen[kind], defaultChannel: defaultChannel[kind] })) };
  };

  app.get(
    '/v1/notification/preferences',
    {
      config: { access: 'authenticated' },
      schema: { tags, security, summary: 'How you want to hear of each kind: in the app, by e-mail, both or none', response: { 200: S.Preferences } },
    },
    async (request) => preferencesOf(requirePrincipal(request).userId),
  );

  app.put(
    '/v1/notification/preferences',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security,
        summary: 'Change how you hear of some kinds (the kinds not named keep their setting)',
        body: S.PreferencesBody,
        response: { 200: S.Preferences },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const kinds = request.body.preferences.map((c) => c.kind);
      if (new Set(kinds).size !== kinds.length) throw ValidationFailure.field('preferences', 'Each kind may be named once.');
      await db.transaction((tx) => repo.savePreferences(tx, p.userId, request.body.preferences));
      return preferencesOf(p.userId);
    },
  );
}
