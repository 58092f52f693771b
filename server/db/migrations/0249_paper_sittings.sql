-- Paper sittings (issue 19 "offline (paper) mode", docs/decisions/0249): a paper sat on paper at
-- the center has a delivery too, of mode 'paper', made Submitted when its first marks are
-- entered; so its result is the same result of issue 20, scored from the marks entered per item.
alter table deliveries add column mode text not null default 'online' check (mode in ('online', 'paper'));

create table paper_marks (
  delivery_id bigint not null references deliveries(id) on delete cascade,
  item_number integer not null check (item_number >= 1),
  marks numeric not null check (marks >= 0),
  entered_by uuid references users(id) on delete set null,
  entered_at timestamptz not null,
  primary key (delivery_id, item_number)
);
