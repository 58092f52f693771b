-- Identity (issue 5): sign-in challenges with e-mailed codes, per-account lockout counters,
-- refresh-token families, one-time account tokens, login history and rate-limit counters.
-- Every time column that a rule depends on is written from the server's injectable clock,
-- never from now(), so tests can move time (SECURITY.md numbers).

-- Consecutive password failures per account (SECURITY.md "Brute force"): 10 → locked 15 minutes.
create table sign_in_failures (
  user_id uuid primary key references users(id) on delete cascade,
  consecutive_failures integer not null default 0,
  last_failure_at timestamptz,
  locked_until timestamptz
);

-- One row per e-mailed 6-digit code. The code exists only as an HMAC bound to the challenge id.
create table sign_in_challenges (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  tenant_id text not null references tenants(id),
  code_hash text not null,
  wrong_attempts integer not null default 0,
  created_at timestamptz not null,
  expires_at timestamptz not null,
  consumed_at timestamptz,
  -- set when a newer code (resend, new sign-in) replaced this one
  replaced_at timestamptz
);
create index sign_in_challenges_user_created_idx on sign_in_challenges (user_id, created_at desc);

-- A sign-in session: every refresh token of one sign-in belongs to one family (RFC 9700 §4.14.2).
create table refresh_token_families (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references users(id) on delete cascade,
  tenant_id text not null references tenants(id),
  created_at timestamptz not null,
  -- absolute: rotation never extends it
  expires_at timestamptz not null,
  revoked_at timestamptz,
  revoked_reason text check (revoked_reason in ('logout', 'refreshTokenReuse', 'passwordChanged', 'passwordReset', 'sessionsEnded')),
  ip text,
  user_agent text
);
create index refresh_token_families_user_idx on refresh_token_families (user_id, created_at desc);

create table refresh_tokens (
  -- SHA-256 of the 256-bit random token (base64url); the token itself is never stored
  token_hash text primary key,
  family_id uuid not null references refresh_token_families(id) on delete cascade,
  created_at timestamptz not null,
  used_at timestamptz
);
create index refresh_tokens_family_idx on refresh_tokens (family_id);

-- Password reset (30 min), e-mail confirmation (24 h) and invitation (72 h) tokens, single use.
create table account_tokens (
  token_hash text primary key,
  user_id uuid not null references users(id) on delete cascade,
  purpose text not null check (purpose in ('resetPassword', 'confirmEmail', 'invitation')),
  created_at timestamptz not null,
  expires_at timestamptz not null,
  used_at timestamptz
);
create index account_tokens_user_idx on account_tokens (user_id, purpose);

-- Every sign-in, failed sign-in, sign-out and revoked session (the users issue searches it).
create table login_history (
  id uuid primary key default gen_random_uuid(),
  -- null when the tenant header named no active tenant
  tenant_id text references tenants(id),
  user_id uuid references users(id) on delete set null,
  email text not null,
  event text not null check (event in ('login', 'loginFailed', 'logout', 'sessionRevoked')),
  reason text,
  ip text,
  user_agent text,
  occurred_at timestamptz not null
);
create index login_history_tenant_time_idx on login_history (tenant_id, occurred_at desc);
create index login_history_user_time_idx on login_history (user_id, occurred_at desc);

-- Fixed-window request counters shared by every instance (SECURITY.md "Rate limits").
create table rate_limit_counters (
  -- SHA-256 of route, rule and caller key (IP address or e-mail), so no address is stored
  bucket text not null,
  window_start timestamptz not null,
  hits integer not null,
  expires_at timestamptz not null,
  primary key (bucket, window_start)
);
create index rate_limit_counters_expires_idx on rate_limit_counters (expires_at);
