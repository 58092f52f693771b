-- The notification center (issue 21, docs/decisions/0260): one row per thing a user is told
-- about in the app. The title is a translation key plus its parameters, so the list speaks the
-- reader's language at the time it is read; `link` is the client path of the record.
create table notifications (
  id bigint generated always as identity primary key,
  tenant_id text not null references tenants(id),
  user_id uuid not null references users(id) on delete cascade,
  kind text not null,
  title_key text not null,
  params jsonb not null default '{}'::jsonb,
  link text,
  created_at timestamptz not null default now(),
  read_at timestamptz,
  archived_at timestamptz
);
-- The list (newest first) and the unread count of one user.
create index notifications_user_created_idx on notifications (user_id, created_at desc, id desc);
create index notifications_user_unread_idx on notifications (user_id) where read_at is null and archived_at is null;

-- Per-kind delivery choice (in the app, by e-mail, both, none); a kind without a row takes its
-- default (server/modules/notifications/notification-kinds.ts).
create table notification_preferences (
  user_id uuid not null references users(id) on delete cascade,
  kind text not null,
  channel text not null check (channel in ('inApp', 'email', 'both', 'none')),
  updated_at timestamptz not null default now(),
  primary key (user_id, kind)
);
