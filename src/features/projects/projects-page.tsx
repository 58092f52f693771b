import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { clearRecord, storeRecord } from '#src/app/stores/record-slices.ts';
import { showProjectConfigStepperStore } from '#src/app/stores/slices.ts';
import { selectedProject, selectProject } from '#src/app/stores/workspace-selection.ts';
import { useHasPermission } from '#src/app/use-permission.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import type { Column } from '#src/components/ui/data-table.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { fieldError, TextAreaField, TextField } from '#src/components/ui/field.tsx';
import { FilterFold } from '#src/components/ui/filter-fold.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { RowMenu, type MenuAction } from '#src/components/ui/menu.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { projectStatusEvents, projectsApi, type ProjectDetail, type ProjectEventName, type ProjectSummary, type ProjectTemplate } from './api/projects-api.ts';
import { NoGrantState } from './components/no-grant.tsx';
import { PermissionGate } from '#src/features/users/index.ts';

type FieldErrors = Record<string, string[]> | null;
const fieldErrorsOf = (error: unknown): FieldErrors => (error as { errors?: Record<string, string[]> } | null)?.errors ?? null;

/** Create a project, optionally from a template (docs/decisions/0091). */
function CreateProjectDialog({ onClose, onCreated }: { onClose: () => void; onCreated: (project: ProjectDetail) => void }) {
  const { t } = useTranslation('projects');
  const [templates, setTemplates] = useState<ProjectTemplate[]>([]);
  const [draft, setDraft] = useState({ code: '', name: '', description: '', templateId: '' });
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<FieldErrors>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);

  useEffect(() => {
    projectsApi.templates().then(setTemplates, () => setTemplates([]));
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setErrors(null);
    setFailure(null);
    try {
      const created = await projectsApi.create({
        code: draft.code.trim(),
        name: draft.name.trim(),
        description: draft.description.trim() || undefined,
        templateId: draft.templateId ? Number(draft.templateId) : null,
      });
      onCreated(created);
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      setFailure(error);
      setBusy(false);
    }
  };
  const set = (field: keyof typeof draft) => (event: { target: { value: string } }) => setDraft((d) => ({ ...d, [field]: event.target.value }));

  return (
    <Dialog
      title={t('create.title')}
      description={t('create.intro')}
      onClose={onClose}
      onSubmit={submit}
      busy={busy}
      testId="create-project-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('create.submit')}
          </Button>
        </>
      }
    >
      <SelectField
        label={t('field.template')}
        value={draft.templateId}
        onValueChange={(value) => {
          set('templateId')({ target: { value } });
          // The chosen template is the selected one (0201); choosing none takes it back.
          const chosen = templates.find((template) => String(template.templateId) === value);
          if (chosen) storeRecord('projectTemplate', chosen);
          else clearRecord('projectTemplate');
        }}
        placeholder={t('create.noTemplate')}
        options={templates.map((template) => ({ value: String(template.templateId), label: template.name }))}
        hint={templates.find((template) => String(template.templateId) === draft.templateId)?.description}
        error={fieldError(errors, 'templateId')}
      />
      <TextField
        label={t('field.code')}
        value={draft.code}
        onChange={set('code')}
        required
        maxLength={32}
        hint={t('create.codeHint')}
        error={fieldError(errors, 'code')}
        autoFocus
      />
      <TextField label={t('field.name')} value={draft.name} onChange={set('name')} required maxLength={200} error={fieldError(errors, 'name')} />
      <TextAreaField
        label={t('field.description')}
        value={draft.description}
        onChange={set('description')}
        maxLength={2000}
        rows={3}
        error={fieldError(errors, 'description')}
      />
      {failureText && !errors ? (
        <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
          {failureText}
        </p>
      ) : null}
    </Dialog>
  );
}

const statusTone = { Draft: 'neutral', Setup: 'warning', Active: 'success', Closed: 'neutral', Archived: 'neutral' } as const;

/** The projects the caller reaches (paged search of spec §3): open one, create, set up, archive. */
function ProjectsPage() {
  const { t } = useTranslation('projects');
  const navigate = useNavigate();
  const { confirm, element: confirmation } = useConfirm();
  const search = usePagedSearch<ProjectSummary>((query) => projectsApi.search(query), { orderBy: ['updatedOn desc'] });
  const errorText = useErrorText(search.error);
  const manager = useHasPermission(P.Projects.Manage);
  const showStepper = useStoreValue(showProjectConfigStepperStore, (s) => s.context.show);
  const [creating, setCreating] = useState(false);
  const selectedId = (selectedProject()?.projectId as number | undefined) ?? null;
  const showArchived = search.query.filters.includeArchived === true || search.query.filters.includeArchived === 'true';

  /** Selecting goes through the workspace chain: another project clears the exam and lower. */
  const open = (project: ProjectSummary) => {
    selectProject(project as unknown as Record<string, unknown>);
    // The detail carries the caller's permissions on it, which the screens below read.
    projectsApi.get(project.projectId).then(
      (detail) => selectProject(detail as unknown as Record<string, unknown>),
      () => undefined,
    );
    const inSetup = project.status === 'Draft' || project.status === 'Setup';
    navigate(inSetup && showStepper ? '/projects/setup' : '/exams');
  };

  const archive = async (project: ProjectSummary) => {
    if (
      !(await confirm({
        title: t('archive.title'),
        message: t(`archive.message${project.status}`, { name: project.name, defaultValue: t('archive.message', { name: project.name }) }),
        confirmLabel: t('action.archive'),
      }))
    )
      return;
    try {
      await projectsApi.transition(project.projectId, 'project.archive', project.version);
      // An archived project is read-only and out of its team's reach: it leaves the workspace.
      if (selectedId === project.projectId) selectProject(null);
      void notify.success(t('archive.done', { name: project.name }));
      search.send({ type: 'search.reload' });
    } catch (error) {
      void notify.error(error);
    }
  };

  const move = async (project: ProjectSummary, event: ProjectEventName) => {
    try {
      const { toStatus } = await projectsApi.transition(project.projectId, event, project.version);
      void notify.success(t('statusChanged', { name: project.name, status: t(`status.${toStatus}`, { defaultValue: toStatus }) }));
      // The selected project's payload (and the projectStatus slice) follow the change.
      if (selectedId === project.projectId)
        projectsApi.get(project.projectId).then(
          (detail) => selectProject(detail as unknown as Record<string, unknown>),
          () => undefined,
        );
      search.send({ type: 'search.reload' });
    } catch (error) {
      void notify.error(error);
    }
  };

  const restore = async (project: ProjectSummary) => {
    try {
      const { toStatus } = await projectsApi.transition(project.projectId, 'project.restore', project.version);
      void notify.success(t('restore.done', { name: project.name, status: t(`status.${toStatus}`, { defaultValue: toStatus }) }));
      search.send({ type: 'search.reload' });
    } catch (error) {
      void notify.error(error);
    }
  };

  const actionsOf = (project: ProjectSummary): MenuAction[] => {
    const actions: MenuAction[] = [{ id: 'open', label: t('action.open'), onSelect: () => open(project) }];
    // The server lists what the project-status machine lets this caller do here (decision 0167):
    // the set-up only for whoever may configure it, archive and restore only for tenant managers.
    const allowed = project.actions;
    if (allowed.includes('project.configure'))
      actions.push({
        id: 'setup',
        label: t('action.setup'),
        onSelect: () => {
          selectProject(project as unknown as Record<string, unknown>);
          navigate('/projects/setup');
        },
      });
    if (project.status === 'Archived') actions.splice(0, actions.length);
    for (const event of projectStatusEvents.filter((e) => allowed.includes(e)))
      actions.push({ id: event, label: t(`projectEvent.${event}`), onSelect: () => void move(project, event) });
    if (allowed.includes('project.archive')) actions.push({ id: 'archive', label: t('action.archive'), tone: 'danger', onSelect: () => void archive(project) });
    if (allowed.includes('project.restore')) actions.push({ id: 'restore', label: t('action.restore'), onSelect: () => void restore(project) });
    return actions;
  };

  const columns: Column<ProjectSummary>[] = [
    { key: 'code', header: t('field.code'), sortKey: 'code', cell: (p) => <span className={css({ fontFamily: 'mono' })}>{p.code}</span> },
    {
      key: 'name',
      header: t('field.name'),
      sortKey: 'name',
      cell: (p) => (
        <button
          type="button"
          className={css({ fontWeight: 'semibold', textAlign: 'start', cursor: 'pointer', color: 'primary.dark', textDecoration: 'underline' })}
          onClick={() => open(p)}
        >
          {p.name}
        </button>
      ),
    },
    { key: 'status', header: t('field.status'), sortKey: 'status', cell: (p) => <Badge tone={statusTone[p.status]}>{t(`status.${p.status}`)}</Badge> },
    { key: 'exams', header: t('field.examCount'), align: 'end', hideOnSmall: true, cell: (p) => p.examCount },
    {
      key: 'actions',
      header: t('field.actions'),
      align: 'end',
      cell: (p) => <RowMenu label={t('action.menu', { name: p.name })} actions={actionsOf(p)} testId={`project-actions-${p.code}`} />,
    },
  ];

  const empty = search.query.keyword ? <NoMatches /> : <NoGrantState manager={manager} />;

  return (
    <section aria-labelledby="projects-title">
      <PageHeader
        id="projects-title"
        title={t('projects.title')}
        description={t('projects.intro')}
        actions={
          manager ? (
            <Button onClick={() => setCreating(true)} data-testid="new-project">
              {t('action.create')}
            </Button>
          ) : null
        }
      />
      <div className={card}>
        <div className={css({ p: '4' })}>
          <SearchInput
            label={t('projects.searchLabel')}
            value={search.query.keyword}
            onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })}
          />
          {manager ? (
            <div className={css({ pt: '3' })}>
              <FilterFold active={showArchived ? 1 : 0}>
                <Switch
                  label={t('projects.showArchived')}
                  checked={showArchived}
                  onChange={(on) => search.send({ type: 'search.filter', filters: { includeArchived: on ? true : '' } })}
                  testId="show-archived"
                />
              </FilterFold>
            </div>
          ) : null}
        </div>
        <PagedTable
          search={search}
          errorText={errorText}
          empty={empty}
          caption={t('projects.title')}
          columns={columns}
          rowKey={(p) => p.projectId}
          testId="projects-table"
        />
      </div>
      {creating ? (
        <CreateProjectDialog
          onClose={() => setCreating(false)}
          onCreated={(project) => {
            setCreating(false);
            void notify.success(t('create.done', { name: project.name }));
            selectProject(project as unknown as Record<string, unknown>);
            navigate(showStepper ? '/projects/setup' : '/exams');
          }}
        />
      ) : null}
      {confirmation}
    </section>
  );
}

function NoMatches() {
  const { t } = useTranslation('projects');
  return <p className={css({ p: '6', textAlign: 'center', color: 'fg.muted' })}>{t('projects.noMatches')}</p>;
}

export default function GatedProjectsPage() {
  return (
    <PermissionGate permission={P.Projects.View}>
      <ProjectsPage />
    </PermissionGate>
  );
}
