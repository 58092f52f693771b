-- Issue 15 (docs/decisions/0166): the history of projects and exams records edits as well as
-- status changes. Project status changes may carry a reason (exam ones already do); an edit
-- row names the fields it changed and the version it made.
alter table project_history add column if not exists reason text;
alter table exam_history add column if not exists details jsonb not null default '{}'::jsonb;
create index if not exists project_history_project_newest_idx on project_history (project_id, id desc);
create index if not exists exam_history_exam_newest_idx on exam_history (exam_id, id desc);
