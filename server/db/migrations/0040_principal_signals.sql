-- The principal cache (docs/decisions/0130) keeps a signed-in caller between requests and drops
-- it on the realtime_control signals. Those already cover revocation, token versions, activation
-- and role membership (0005); these complete what a principal is made of, so no cached caller
-- outlives a change of it: the profile fields it carries, a deleted user or session, the tenant
-- switched off, a role renamed or removed. Delivered on commit only, like the others.
create function principal_signal() returns trigger language plpgsql as $$
begin
  if tg_table_name = 'users' then
    if tg_op = 'DELETE' then
      perform pg_notify('realtime_control', json_build_object('type', 'user.revoked', 'userId', old.id)::text);
    elsif (new.email, new.first_name, new.last_name, new.user_type, new.reseller_id, new.institute_id, new.tenant_id)
          is distinct from (old.email, old.first_name, old.last_name, old.user_type, old.reseller_id, old.institute_id, old.tenant_id) then
      perform pg_notify('realtime_control', json_build_object('type', 'principal.changed', 'userId', new.id)::text);
    end if;
  elsif tg_table_name = 'refresh_token_families' then
    perform pg_notify('realtime_control', json_build_object('type', 'session.revoked', 'sessionId', old.id, 'userId', old.user_id)::text);
  elsif tg_table_name = 'tenants' then
    if new.is_active is distinct from old.is_active then
      perform pg_notify('realtime_control', json_build_object('type', 'tenant.changed', 'tenantId', new.id)::text);
    end if;
  elsif tg_table_name = 'roles' then
    perform pg_notify('realtime_control', json_build_object('type', 'permissions.changed', 'roleId', coalesce(new.id, old.id))::text);
  end if;
  return null;
end
$$;

create trigger users_principal after update or delete on users
  for each row execute function principal_signal();
create trigger refresh_token_families_principal after delete on refresh_token_families
  for each row execute function principal_signal();
create trigger tenants_principal after update on tenants
  for each row execute function principal_signal();
create trigger roles_principal after update of name or delete on roles
  for each row execute function principal_signal();
