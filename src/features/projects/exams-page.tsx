import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { examStore, projectStore } from '#src/app/stores/slices.ts';
import { selectExam } from '#src/app/stores/workspace-selection.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import type { Column } from '#src/components/ui/data-table.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { fieldError, TextField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { RowMenu, type MenuAction } from '#src/components/ui/menu.tsx';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { examsApi, type Exam } from './api/projects-api.ts';
import { chooseExam } from './choose-exam.ts';
import { NoProjectState } from './components/no-grant.tsx';

type FieldErrors = Record<string, string[]> | null;

/** The exam events a row menu offers; withdrawing results needs a reason and is not one of them. */
const examMenuEvents = ['exam.schedule', 'exam.unschedule', 'exam.start', 'exam.end', 'exam.publishResults', 'exam.close'];

function CreateExamDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (exam: Exam) => void }) {
  const { t } = useTranslation('projects');
  const [draft, setDraft] = useState({ code: '', name: '' });
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      onCreated(await examsApi.create({ code: draft.code.trim(), name: draft.name.trim() }));
    } catch (error) {
      setErrors((error as { errors?: Record<string, string[]> } | null)?.errors ?? null);
      setFailure(error);
      setBusy(false);
    }
  };
  return (
    <Dialog
      title={t('exams.createTitle')}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      testId="create-exam-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('exams.createSubmit')}
          </Button>
        </>
      }
    >
      <TextField
        label={t('field.code')}
        value={draft.code}
        onChange={(e) => setDraft((d) => ({ ...d, code: e.target.value }))}
        required
        maxLength={32}
        error={fieldError(errors, 'code')}
        autoFocus
      />
      <TextField
        label={t('field.name')}
        value={draft.name}
        onChange={(e) => setDraft((d) => ({ ...d, name: e.target.value }))}
        required
        maxLength={200}
        error={fieldError(errors, 'name')}
      />
      {failureText && !errors ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
    </Dialog>
  );
}

/** The exams of the selected project (a project call): pick the one to work in. */
function ExamsList({ project }: { project: Record<string, unknown> }) {
  const { t } = useTranslation('projects');
  const search = usePagedSearch<Exam>((query) => examsApi.search(query), { orderBy: ['code asc'] });
  const errorText = useErrorText(search.error);
  const selected = useStoreValue(examStore, (s) => s.context.selected);
  const [creating, setCreating] = useState(false);
  const canCreate = project.canConfigure === true || (Array.isArray(project.myPermissions) && project.myPermissions.includes('ProjectAdmin'));

  /** Selecting an exam stores it and fetches the caller's exam permissions on it (spec §4 examPermissions). */
  const choose = async (exam: Exam) => {
    await chooseExam(exam as unknown as { examId: number } & Record<string, unknown>);
    void notify.success(t('exams.selected', { name: exam.name }));
  };

  /** A status change the exam machine offers this caller (the server's `actions`); a reason-needing one stays on its own screen. */
  const move = async (exam: Exam, event: string) => {
    try {
      const { toStatus } = await examsApi.transition(exam.examId, event, exam.version);
      void notify.success(t('exams.statusChanged', { name: exam.name, status: t(`examStatus.${toStatus}`, { defaultValue: toStatus }) }));
      if (selected?.examId === exam.examId) selectExam({ ...(selected ?? {}), status: toStatus, version: exam.version + 1 });
      search.send({ type: 'search.reload' });
    } catch (error) {
      void notify.error(error);
    }
  };
  const statusActions = (exam: Exam): MenuAction[] =>
    exam.actions
      .filter((event) => examMenuEvents.includes(event))
      .map((event) => ({ id: event, label: t(`examEvent.${event}`), onSelect: () => void move(exam, event) }));

  const columns: Column<Exam>[] = [
    { key: 'code', header: t('field.code'), sortKey: 'code', cell: (e) => <span className={css({ fontFamily: 'mono' })}>{e.code}</span> },
    { key: 'name', header: t('field.name'), sortKey: 'name', cell: (e) => e.name },
    { key: 'status', header: t('field.status'), sortKey: 'status', cell: (e) => <Badge>{t(`examStatus.${e.status}`, { defaultValue: e.status })}</Badge> },
    {
      key: 'select',
      header: t('field.actions'),
      align: 'end',
      cell: (e) => (
        <span className={css({ display: 'inline-flex', gap: '2', alignItems: 'center' })}>
          {selected?.examId === e.examId ? (
            <Badge tone="primary" testId={`exam-current-${e.code}`}>
              {t('exams.current')}
            </Badge>
          ) : (
            <Button size="sm" variant="outline" onClick={() => void choose(e)} data-testid={`select-exam-${e.code}`}>
              {t('exams.selectNamed', { name: e.name })}
            </Button>
          )}
          <RowMenu label={t('action.menu', { name: e.name })} actions={statusActions(e)} testId={`exam-actions-${e.code}`} />
        </span>
      ),
    },
  ];

  return (
    <section aria-labelledby="exams-title">
      <PageHeader
        id="exams-title"
        title={t('exams.title', { project: String(project.name ?? '') })}
        description={t('exams.intro')}
        actions={canCreate ? <Button onClick={() => setCreating(true)}>{t('exams.create')}</Button> : null}
      />
      <div className={card}>
        <div className={css({ p: '4' })}>
          <SearchInput
            label={t('exams.searchLabel')}
            value={search.query.keyword}
            onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })}
          />
        </div>
        <PagedTable
          search={search}
          errorText={errorText}
          empty={<EmptyState title={t('exams.none')}>{canCreate ? t('exams.noneHintAdmin') : t('exams.noneHint')}</EmptyState>}
          caption={t('exams.caption')}
          columns={columns}
          rowKey={(e) => e.examId}
          testId="exams-table"
        />
      </div>
      {creating ? (
        <CreateExamDialog
          onClose={() => setCreating(false)}
          onCreated={(exam) => {
            setCreating(false);
            void notify.success(t('exams.created', { name: exam.name }));
            search.send({ type: 'search.reload' });
          }}
        />
      ) : null}
    </section>
  );
}

function ExamsPage() {
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  if (!project) return <NoProjectState />;
  // A new project remounts the list: its search starts over for that project.
  return <ExamsList key={String(project.projectId)} project={project} />;
}

export default function GatedExamsPage() {
  return (
    <PermissionGate permission={P.Exams.View}>
      <ExamsPage />
    </PermissionGate>
  );
}
