-- Exact ticket counts per (tenant, support group, status) without counting rows on every
-- search (docs/decisions/0008). Every write to support_tickets appends its net change here,
-- in the same transaction, from statement-level triggers (one row per group and status a
-- statement touched, so a bulk insert of a million tickets adds a handful of rows). Appending
-- never waits on a lock; a scheduled job folds the rows into one per (tenant, group, status).
create table support_ticket_count_deltas (
  id bigint generated always as identity primary key,
  tenant_id text not null,
  support_group_id integer not null,
  status_id smallint not null,
  delta bigint not null
);
create index support_ticket_count_deltas_key_idx on support_ticket_count_deltas (tenant_id, status_id, support_group_id) include (delta);

create function support_ticket_counts_after_insert() returns trigger language plpgsql as $$
begin
  insert into support_ticket_count_deltas (tenant_id, support_group_id, status_id, delta)
  select tenant_id, support_group_id, status_id, count(*) from new_rows group by 1, 2, 3;
  return null;
end $$;

create function support_ticket_counts_after_delete() returns trigger language plpgsql as $$
begin
  insert into support_ticket_count_deltas (tenant_id, support_group_id, status_id, delta)
  select tenant_id, support_group_id, status_id, -count(*) from old_rows group by 1, 2, 3;
  return null;
end $$;

create function support_ticket_counts_after_update() returns trigger language plpgsql as $$
begin
  insert into support_ticket_count_deltas (tenant_id, support_group_id, status_id, delta)
  select tenant_id, support_group_id, status_id, sum(d)
  from (
    select tenant_id, support_group_id, status_id, -1 as d from old_rows
    union all
    select tenant_id, support_group_id, status_id, 1 from new_rows
  ) changes
  group by 1, 2, 3;
  -- Net-zero rows (an edit, a move back and forth) are kept too: every committed write adds a
  -- row, which is what tells cached keyword totals that they are stale. Compaction drops them.
  return null;
end $$;

create trigger support_ticket_counts_insert after insert on support_tickets
  referencing new table as new_rows for each statement execute function support_ticket_counts_after_insert();
create trigger support_ticket_counts_delete after delete on support_tickets
  referencing old table as old_rows for each statement execute function support_ticket_counts_after_delete();
create trigger support_ticket_counts_update after update on support_tickets
  referencing old table as old_rows new table as new_rows for each statement execute function support_ticket_counts_after_update();

-- The tickets that exist already.
insert into support_ticket_count_deltas (tenant_id, support_group_id, status_id, delta)
select tenant_id, support_group_id, status_id, count(*) from support_tickets group by 1, 2, 3;
