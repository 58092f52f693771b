-- The item list's totalCount from counters for every filter but the text search and the author
-- (docs/decisions/0213). Generalises item_status_counts (0011): one row per combination of the
-- list's facets that items actually have, so a filtered total is a sum over at most a few
-- thousand rows instead of a count over the project's items. Kept by the same statement-level
-- triggers, each statement applying its changes in one upsert ordered by key, so concurrent
-- transactions lock counter rows in the same order.
create table item_facet_counts (
  project_id bigint not null,
  category_id bigint not null,
  kind text not null,
  difficulty text not null,
  status text not null,
  -- 0 stands for "no item type" (a key column cannot be null)
  item_type_id bigint not null,
  languages text[] not null,
  duplicate boolean not null,
  n integer not null,
  primary key (project_id, category_id, kind, difficulty, status, item_type_id, languages, duplicate)
);

insert into item_facet_counts (project_id, category_id, kind, difficulty, status, item_type_id, languages, duplicate, n)
select project_id, category_id, kind, difficulty, status, coalesce(item_type_id, 0), languages, duplicate_item_id is not null, count(*)
from items group by 1, 2, 3, 4, 5, 6, 7, 8;

-- Each branch names only the transition tables its trigger has (plpgsql plans a statement when
-- it first runs, so the others are never planned).
create or replace function item_counts_apply() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into item_facet_counts as f (project_id, category_id, kind, difficulty, status, item_type_id, languages, duplicate, n)
    select project_id, category_id, kind, difficulty, status, coalesce(item_type_id, 0), languages, duplicate_item_id is not null, count(*)
    from new_rows group by 1, 2, 3, 4, 5, 6, 7, 8 order by 1, 2, 3, 4, 5, 6, 7, 8
    on conflict (project_id, category_id, kind, difficulty, status, item_type_id, languages, duplicate) do update set n = f.n + excluded.n;
  elsif tg_op = 'DELETE' then
    insert into item_facet_counts as f (project_id, category_id, kind, difficulty, status, item_type_id, languages, duplicate, n)
    select project_id, category_id, kind, difficulty, status, coalesce(item_type_id, 0), languages, duplicate_item_id is not null, -count(*)
    from old_rows group by 1, 2, 3, 4, 5, 6, 7, 8 order by 1, 2, 3, 4, 5, 6, 7, 8
    on conflict (project_id, category_id, kind, difficulty, status, item_type_id, languages, duplicate) do update set n = f.n + excluded.n;
  else
    insert into item_facet_counts as f (project_id, category_id, kind, difficulty, status, item_type_id, languages, duplicate, n)
    select project_id, category_id, kind, difficulty, status, item_type_id, languages, duplicate, sum(d)::int
    from (
      select o.project_id, o.category_id, o.kind, o.difficulty, o.status, coalesce(o.item_type_id, 0) as item_type_id, o.languages,
             o.duplicate_item_id is not null as duplicate, -1 as d
      from old_rows o
      union all
      select w.project_id, w.category_id, w.kind, w.difficulty, w.status, coalesce(w.item_type_id, 0), w.languages,
             w.duplicate_item_id is not null, 1
      from new_rows w
    ) changed
    group by 1, 2, 3, 4, 5, 6, 7, 8
    having sum(d) <> 0
    order by 1, 2, 3, 4, 5, 6, 7, 8
    on conflict (project_id, category_id, kind, difficulty, status, item_type_id, languages, duplicate) do update set n = f.n + excluded.n;
  end if;
  return null;
end
$$;

drop table item_status_counts;
