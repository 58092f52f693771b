-- Issue 23: the answer bot suggests only answers an agent marked as reusable knowledge when
-- resolving, never a ticket's private answer. Answers given before this migration were not
-- marked, so none of them is suggested until an agent resolves such a ticket again.
alter table support_tickets add column answer_reusable boolean not null default false;
