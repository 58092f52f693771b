import type { NotificationDto } from '#machines/realtime-protocol.ts';
import type { Queryable } from '#server/db/client.ts';
import { defaultChannel, isNotificationKind, notificationKinds, type NotificationChannel, type NotificationKind } from './notification-kinds.ts';

interface NotificationRow {
  id: number | string;
  kind: NotificationKind;
  title_key: string;
  params: Record<string, string | number>;
  link: string | null;
  created_at: Date | string;
  read_at: Date | string | null;
  archived_at: Date | string | null;
}

const columns = 'id, kind, title_key, params, link, created_at, read_at, archived_at';
const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toNotification(row: NotificationRow): NotificationDto {
  return {
    id: Number(row.id),
    kind: row.kind,
    titleKey: row.title_key,
    params: row.params ?? {},
    link: row.link,
    createdOn: iso(row.created_at)!,
    readOn: iso(row.read_at),
    archivedOn: iso(row.archived_at),
  };
}

export interface NewNotification {
  tenantId: string;
  userId: string;
  kind: NotificationKind;
  titleKey: string;
  params: Record<string, string | number>;
  link: string | null;
}

export async function insertNotification(tx: Queryable, n: NewNotification): Promise<NotificationDto> {
  const { rows } = await tx.query<NotificationRow>(
    `insert into notifications (tenant_id, user_id, kind, title_key, params, link) values ($1, $2, $3, $4, $5::jsonb, $6) returning ${columns}`,
    [n.tenantId, n.userId, n.kind, n.titleKey, JSON.stringify(n.params), n.link],
  );
  return toNotification(rows[0]);
}

export async function unreadCount(db: Queryable, userId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'select count(*)::int as n from notifications where user_id = $1 and read_at is null and archived_at is null',
    [userId],
  );
  return rows[0].n;
}

/** One page of a user's notifications, newest first: the archive, or what is not archived. */
export async function pageNotifications(
  db: Queryable,
  userId: string,
  options: { archived: boolean; unreadOnly: boolean; limit: number; offset: number },
): Promise<{ rows: NotificationDto[]; total: number }> {
  const where = `user_id = $1 and archived_at is ${options.archived ? 'not null' : 'null'}${options.unreadOnly ? ' and read_at is null' : ''}`;
  const [page, count] = await Promise.all([
    db.query<NotificationRow>(`select ${columns} from notifications where ${where} order by created_at desc, id desc limit $2 offset $3`, [
      userId,
      options.limit,
      options.offset,
    ]),
    db.query<{ n: number }>(`select count(*)::int as n from notifications where ${where}`, [userId]),
  ]);
  return { rows: page.rows.map(toNotification), total: count.rows[0].n };
}

/** Sets or clears a timestamp of the caller's own notification; null when it is not theirs. */
export async function setMark(tx: Queryable, userId: string, id: number, change: 'read' | 'unread' | 'archive' | 'unarchive'): Promise<NotificationDto | null> {
  const set = {
    read: 'read_at = coalesce(read_at, now())',
    unread: 'read_at = null',
    archive: 'archived_at = coalesce(archived_at, now())',
    unarchive: 'archived_at = null',
  }[change];
  const { rows } = await tx.query<NotificationRow>(`update notifications set ${set} where id = $1 and user_id = $2 returning ${columns}`, [id, userId]);
  return rows[0] ? toNotification(rows[0]) : null;
}

export async function markAllRead(tx: Queryable, userId: string): Promise<number> {
  const { rowCount } = await tx.query('update notifications set read_at = now() where user_id = $1 and read_at is null and archived_at is null', [userId]);
  return rowCount;
}

/** Every kind with the user's channel (their choice, else the default). */
export async function preferencesOf(db: Queryable, userId: string): Promise<Record<NotificationKind, NotificationChannel>> {
  const { rows } = await db.query<{ kind: string; channel: NotificationChannel }>('select kind, channel from notification_preferences where user_id = $1', [
    userId,
  ]);
  const result = { ...defaultChannel };
  for (const row of rows) if (isNotificationKind(row.kind)) result[row.kind] = row.channel;
  return result;
}

export async function channelOf(db: Queryable, userId: string, kind: NotificationKind): Promise<NotificationChannel> {
  const { rows } = await db.query<{ channel: NotificationChannel }>('select channel from notification_preferences where user_id = $1 and kind = $2', [
    userId,
    kind,
  ]);
  return rows[0]?.channel ?? defaultChannel[kind];
}

export async function savePreferences(tx: Queryable, userId: string, choices: ReadonlyArray<{ kind: NotificationKind; channel: NotificationChannel }>) {
  for (const { kind, channel } of choices) {
    await tx.query(
      `insert into notification_preferences (user_id, kind, channel) values ($1, $2, $3)
       on conflict (user_id, kind) do update set channel = excluded.channel, updated_at = now()`,
      [userId, kind, channel],
    );
  }
}

export { notificationKinds };
