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
