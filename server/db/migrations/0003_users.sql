-- User administration (issue 6): user languages, bulk upload files and their per-row outcomes,
-- and the indexes the user search and the login history search need.

-- The languages a user works in (spec §3 "User language": id, userId). One row per language.
create table user_languages (
  id uuid primary key default gen_random_uuid(),
  tenant_id text not null references tenants(id),
  user_id uuid not null references users(id) on delete cascade,
  language_code text not null,
  created_at timestamptz not null default now(),
  unique (user_id, language_code)
);

-- One bulk upload: the file (kept in the database so every instance sees it), the job that
-- works it and the counts shown by searchuploadedjobstatus. `rows_processed` lets a job whose
-- process died resume where the last committed batch ended instead of starting again.
create table user_uploads (
  id uuid primary key default gen_random_uuid(),
  tenant_id text not null references tenants(id),
  job_id uuid references jobs(id) on delete set null,
  file_name text not null,
  content bytea not null,
  size_bytes integer not null,
  redirect_url text,
  -- the uploader's scope: the users created inherit it, and only callers of that scope see the upload
  institute_id uuid,
  reseller_id uuid,
  uploaded_by uuid references users(id) on delete set null,
  state text not null default 'queued' check (state in ('queued', 'running', 'finished', 'failed')),
  message text,
  total_rows integer not null default 0,
  rows_processed integer not null default 0,
  created_count integer not null default 0,
  failed_count integer not null default 0,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz
);
create index user_uploads_tenant_created_idx on user_uploads (tenant_id, created_at desc, id);

-- The rows that were refused, with the reason; the error file is built from these.
create table user_upload_errors (
  upload_id uuid not null references user_uploads(id) on delete cascade,
  row_number integer not null,
  cells jsonb not null,
  reason text not null,
  primary key (upload_id, row_number)
);

create index users_tenant_institute_idx on users (tenant_id, institute_id) where institute_id is not null;
create index users_tenant_reseller_idx on users (tenant_id, reseller_id) where reseller_id is not null;

-- Exact user counts per tenant, scope, status and e-mail confirmation, kept by statement-level
-- triggers, so the user search answers totalCount without counting 100,000 rows when only
-- these filters apply (docs/decisions/0042). Null scopes are stored as the nil uuid.
create table user_counts (
  tenant_id text not null,
  institute_key uuid not null,
  reseller_key uuid not null,
  is_active boolean not null,
  email_confirmed boolean not null,
  n bigint not null,
  primary key (tenant_id, institute_key, reseller_key, is_active, email_confirmed)
);

insert into user_counts (tenant_id, institute_key, reseller_key, is_active, email_confirmed, n)
select tenant_id, coalesce(institute_id, '00000000-0000-0000-0000-000000000000'), coalesce(reseller_id, '00000000-0000-0000-0000-000000000000'),
       is_active, email_confirmed, count(*)
from users group by 1, 2, 3, 4, 5;

create function user_counts_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into user_counts as c (tenant_id, institute_key, reseller_key, is_active, email_confirmed, n)
    select tenant_id, coalesce(institute_id, '00000000-0000-0000-0000-000000000000'), coalesce(reseller_id, '00000000-0000-0000-0000-000000000000'),
           is_active, email_confirmed, count(*)
    from new_rows group by 1, 2, 3, 4, 5
    on conflict (tenant_id, institute_key, reseller_key, is_active, email_confirmed) do update set n = c.n + excluded.n;
  elsif tg_op = 'DELETE' then
    insert into user_counts as c (tenant_id, institute_key, reseller_key, is_active, email_confirmed, n)
    select tenant_id, coalesce(institute_id, '00000000-0000-0000-0000-000000000000'), coalesce(reseller_id, '00000000-0000-0000-0000-000000000000'),
           is_active, email_confirmed, -count(*)
    from old_rows group by 1, 2, 3, 4, 5
    on conflict (tenant_id, institute_key, reseller_key, is_active, email_confirmed) do update set n = c.n + excluded.n;
  else
    -- Only rows whose counted columns changed touch the counters (logins and profile edits do not).
    insert into user_counts as c (tenant_id, institute_key, reseller_key, is_active, email_confirmed, n)
    select k.tenant_id, k.institute_key, k.reseller_key, k.is_active, k.email_confirmed, sum(k.delta)
    from (
      select o.tenant_id, coalesce(o.institute_id, '00000000-0000-0000-0000-000000000000') as institute_key,
             coalesce(o.reseller_id, '00000000-0000-0000-0000-000000000000') as reseller_key, o.is_active, o.email_confirmed, -1 as delta
      from old_rows o join new_rows n on n.id = o.id
      where (o.tenant_id, o.institute_id, o.reseller_id, o.is_active, o.email_confirmed)
            is distinct from (n.tenant_id, n.institute_id, n.reseller_id, n.is_active, n.email_confirmed)
      union all
      select n.tenant_id, coalesce(n.institute_id, '00000000-0000-0000-0000-000000000000'),
             coalesce(n.reseller_id, '00000000-0000-0000-0000-000000000000'), n.is_active, n.email_confirmed, 1
      from old_rows o join new_rows n on n.id = o.id
      where (o.tenant_id, o.institute_id, o.reseller_id, o.is_active, o.email_confirmed)
            is distinct from (n.tenant_id, n.institute_id, n.reseller_id, n.is_active, n.email_confirmed)
    ) k
    group by 1, 2, 3, 4, 5
    on conflict (tenant_id, institute_key, reseller_key, is_active, email_confirmed) do update set n = c.n + excluded.n;
  end if;
  return null;
end
$$;

create trigger user_counts_insert after insert on users referencing new table as new_rows
  for each statement execute function user_counts_apply();
create trigger user_counts_delete after delete on users referencing old table as old_rows
  for each statement execute function user_counts_apply();
create trigger user_counts_update after update on users referencing old table as old_rows new table as new_rows
  for each statement execute function user_counts_apply();

-- The administration table sorts by name: these keep "order by lastName / firstName" an index walk.
create index users_tenant_last_name_idx on users (tenant_id, lower(last_name), id desc);
create index users_tenant_first_name_idx on users (tenant_id, lower(first_name), id desc);
