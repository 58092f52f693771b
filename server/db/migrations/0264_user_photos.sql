-- A user's own photo (issue 21, docs/decisions/0264), shown as their avatar: one per user, kept
-- in the database like the other small uploads; its type is the one sniffed from its bytes.
create table user_photos (
  user_id uuid primary key references users(id) on delete cascade,
  mime text not null check (mime in ('image/png', 'image/jpeg', 'image/webp')),
  size_bytes integer not null check (size_bytes > 0),
  content bytea not null,
  updated_at timestamptz not null default now()
);
