import { ExportTemplatesPage } from '#src/features/results/index.ts';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { dropRecord } from '#src/app/stores/record-slices.ts';
import { examPermissionsStore, examStore, paperStore, projectStore } from '#src/app/stores/slices.ts';
import { useHasPermission } from '#src/app/use-permission.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { projectsApi, type ProjectTemplate } from './api/projects-api.ts';
import { CategoriesEditor } from './components/categories-editor.tsx';
import { FlowsEditor } from './components/flows-editor.tsx';
import { ItemTypesEditor } from './components/item-types-editor.tsx';
import { NoProjectState } from './components/no-grant.tsx';
import { ExamDetails, ProjectHistory } from './exam-details-page.tsx';
import { useProjectConfig } from './use-project-config.ts';
import { sliceAt, slicesOf, sliceTitleKey, workspaceLevels, type WorkspaceLevel, type WorkspaceSlice } from './workspace-slices.ts';

const link = css({ color: 'primary.dark', textDecoration: 'underline' });
const tile = css({
  display: 'grid',
  gap: '1',
  p: '3',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  textDecoration: 'none',
  color: 'fg.default',
  _hover: { bg: 'bg.hover' },
  _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '1px' },
});

const gated = (children: ReactNode) => <PermissionGate permission={P.Projects.View}>{children}</PermissionGate>;

/** What the slice needs selected that is not (null when it can open). */
function useMissingSelection(level: WorkspaceLevel): 'project' | 'exam' | 'paper' | null {
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  const paper = useStoreValue(paperStore, (s) => s.context.selected);
  if (level === 'tenant') return null;
  if (!project) return 'project';
  if ((level === 'exam' || level === 'paper') && !exam) return 'exam';
  if (level === 'paper' && !paper) return 'paper';
  return null;
}

/** A slice opened before what it hangs under is selected: say what to choose, and where. */
function ChooseFirst({ missing }: { missing: 'project' | 'exam' | 'paper' }) {
  const { t } = useTranslation('projects');
  if (missing === 'project') return <NoProjectState inPage />;
  const to = missing === 'exam' ? '/exams' : '/workspace/papers';
  return (
    <div data-testid={`choose-${missing}`}>
      <EmptyState title={t(`workspace.choose.${missing}`)}>
        <Link to={to} className={link}>
          {t(`workspace.choose.${missing}Link`)}
        </Link>
      </EmptyState>
    </div>
  );
}

/** /workspace: every slice of the selected project, grouped by what it hangs under (EXAMS.md §1). */
function WorkspaceOverview() {
  const { t } = useTranslation('projects');
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  if (!project) return <NoProjectState />;
  return (
    <section aria-labelledby="workspace-title">
      <PageHeader id="workspace-title" title={t('workspace.title', { project: String(project.name ?? '') })} description={t('workspace.intro')} />
      <div className={css({ display: 'grid', gap: '4' })}>
        {workspaceLevels.map((level) => (
          <section key={level} aria-labelledby={`level-${level}`} className={`${card} ${css({ p: '4' })}`}>
            <h2 id={`level-${level}`} className={css({ fontWeight: 'semibold', mb: '2' })}>
              {t(`workspace.level.${level}`, { exam: String(exam?.name ?? t('bar.none')) })}
            </h2>
            <ul
              className={css({
                display: 'grid',
                gap: '2',
                gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(3, 1fr)' },
                listStyle: 'none',
                p: 0,
                m: 0,
              })}
            >
              {slicesOf(level)
                .filter((slice) => slice.id !== 'overview')
                .map((slice) => (
                  <li key={slice.id}>
                    <Link to={slice.path} className={tile} data-testid={`tile-${slice.id}`}>
                      <span className={css({ fontWeight: 'semibold' })}>{t(sliceTitleKey(slice), { ns: 'common' })}</span>
                      <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t(`sliceHint.${slice.id}`)}</span>
                      {slice.available ? null : (
                        <span>
                          <Badge tone="neutral">{t('workspace.comingIn', { issue: slice.issue })}</Badge>
                        </span>
                      )}
                    </Link>
                  </li>
                ))}
            </ul>
          </section>
        ))}
      </div>
    </section>
  );
}

/** A slice whose screen comes with a later issue: the route exists, the page says so. */
function SlicePlaceholder({ slice }: { slice: WorkspaceSlice }) {
  const { t } = useTranslation('projects');
  const missing = useMissingSelection(slice.level);
  return (
    <section aria-labelledby="slice-title">
      <PageHeader id="slice-title" title={t(sliceTitleKey(slice), { ns: 'common' })} description={t(`sliceHint.${slice.id}`)} />
      <div className={card} data-testid="slice-not-yet">
        {missing ? (
          <ChooseFirst missing={missing} />
        ) : (
          <EmptyState title={t('workspace.notYetTitle', { slice: t(sliceTitleKey(slice), { ns: 'common' }) })}>
            {t('workspace.notYetHint', { issue: slice.issue })}{' '}
            <Link to="/workspace" className={link}>
              {t('workspace.backToWorkspace')}
            </Link>
          </EmptyState>
        )}
      </div>
    </section>
  );
}

/**
 * Slices whose screen lives in this chunk without an entry of their own in the route table: the
 * generic slice route lands here (the route table is part of the first render of `/`, this
 * chunk is not; docs/decisions/0257).
 */
const sliceScreens: Partial<Record<string, () => ReactNode>> = {
  exportTemplates: () => <ExportTemplatesPage />,
  // The exam's results are the results console; a paper's delivery is the invigilator console.
  results: () => <Navigate to="/results?view=console" replace />,
  delivery: () => <Navigate to="/invigilate" replace />,
};

function SlicePlaceholderPage() {
  const { pathname } = useLocation();
  const slice = sliceAt(pathname.replace(/\/$/, ''));
  if (!slice) return null;
  const screen = slice.available ? sliceScreens[slice.id] : undefined;
  if (screen) return screen();
  return <SlicePlaceholder key={slice.id} slice={slice} />;
}

type ConfigPart = 'itemTypes' | 'categories' | 'flows';

/** One configuration part of the selected project as its own screen (the stepper's step, outside the stepper). */
function ConfigScreen({ projectId, part }: { projectId: number; part: ConfigPart }) {
  const { t } = useTranslation('projects');
  const config = useProjectConfig(projectId);
  const errorText = useErrorText(config.error);
  const { detail } = config;
  if (!detail) return errorText ? <ErrorState message={errorText} onRetry={() => void config.reload()} /> : <LoadingState />;
  const canEdit = detail.canConfigure;
  return (
    <section aria-labelledby="config-title">
      <PageHeader id="config-title" title={t(`nav.${part}`, { ns: 'common' })} description={t(`sliceHint.${part}`)} />
      <div className={`${card} ${css({ p: '4' })}`}>
        {canEdit ? null : <p className={css({ fontSize: 'sm', color: 'fg.muted', pb: '2' })}>{t('basics.readOnly')}</p>}
        {part === 'itemTypes' ? <ItemTypesEditor projectId={projectId} itemTypes={config.itemTypes} canEdit={canEdit} onChanged={config.reload} /> : null}
        {part === 'categories' ? <CategoriesEditor projectId={projectId} categories={config.categories} canEdit={canEdit} onChanged={config.reload} /> : null}
        {part === 'flows' ? <FlowsEditor projectId={projectId} flows={config.flows} canEdit={canEdit} onChanged={config.reload} /> : null}
      </div>
    </section>
  );
}

function ConfigPage({ part }: { part: ConfigPart }) {
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  const projectId = typeof project?.projectId === 'number' ? project.projectId : null;
  if (projectId === null) return <NoProjectState />;
  return <ConfigScreen key={projectId} projectId={projectId} part={part} />;
}

/** The caller's exam permissions on the selected exam: the examPermissions slice, as the screens read it. */
function MyPermissions() {
  const { t } = useTranslation('projects');
  const missing = useMissingSelection('exam');
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  const permissions = useStoreValue(examPermissionsStore, (s) => s.context.permissions);
  return (
    <section aria-labelledby="mine-title">
      <PageHeader id="mine-title" title={t('nav.examPermissions', { ns: 'common' })} description={t('sliceHint.examPermissions')} />
      <div className={`${card} ${css({ p: '4' })}`} data-testid="my-permissions">
        {missing ? (
          <ChooseFirst missing={missing} />
        ) : permissions.length === 0 ? (
          <EmptyState title={t('mine.none', { exam: String(exam?.name ?? '') })}>{t('empty.noGrantHint')}</EmptyState>
        ) : (
          <>
            <p className={css({ pb: '2' })}>{t('mine.intro', { exam: String(exam?.name ?? '') })}</p>
            <ul className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', listStyle: 'none', p: 0 })}>
              {permissions.map((name) => (
                <li key={name}>
                  <Badge tone="primary">{t(`permission.${name}`, { defaultValue: name })}</Badge>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}

/** The tenant's project templates (decision 0091): what each copies into a new project. */
function Templates() {
  const { t } = useTranslation('projects');
  const manager = useHasPermission(P.Projects.Manage);
  const { confirm, element: confirmation } = useConfirm();
  const [templates, setTemplates] = useState<ProjectTemplate[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const errorText = useErrorText(error);
  const load = useCallback(() => projectsApi.templates().then(setTemplates, setError), []);
  useEffect(() => {
    void load();
  }, [load]);
  const remove = async (template: ProjectTemplate) => {
    if (
      !(await confirm({
        title: t('templates.deleteTitle'),
        message: t('templates.deleteMessage', { name: template.name }),
        confirmLabel: t('categories.delete'),
      }))
    )
      return;
    try {
      await projectsApi.deleteTemplate(template.templateId);
      dropRecord('projectTemplate', template.templateId);
      void notify.success(t('templates.deleted', { name: template.name }));
      await load();
    } catch (failure) {
      void notify.error(failure);
    }
  };
  return (
    <section aria-labelledby="templates-title">
      <PageHeader id="templates-title" title={t('nav.templates', { ns: 'common' })} description={t('sliceHint.templates')} />
      <div className={`${card} ${css({ p: '4' })}`} data-testid="templates-list">
        {error ? (
          <ErrorState message={errorText} />
        ) : !templates ? (
          <LoadingState />
        ) : templates.length === 0 ? (
          <EmptyState title={t('templates.none')} />
        ) : (
          <ul className={css({ display: 'grid', gap: '3', listStyle: 'none', p: 0, m: 0 })}>
            {templates.map((template) => (
              <li key={template.templateId} className={css({ borderBottomWidth: '1px', borderColor: 'border', pb: '3' })}>
                <h2 className={css({ fontWeight: 'semibold' })}>
                  {template.name} {template.isSystem ? <Badge tone="info">{t('templates.system')}</Badge> : null}
                </h2>
                <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{template.description}</p>
                <p className={css({ fontSize: 'sm' })}>
                  {t('templates.carries', {
                    itemTypes: template.config.itemTypes.length,
                    categories: template.config.categories.length,
                    flows: template.config.flows.length,
                  })}
                </p>
                {manager && !template.isSystem ? (
                  <Button size="sm" variant="ghost" onClick={() => void remove(template)} aria-label={t('templates.deleteNamed', { name: template.name })}>
                    {t('categories.delete')}
                  </Button>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
      {confirmation}
    </section>
  );
}

/** /workspace/exam: the selected exam's details, pass rules, status actions and history. */
function ExamDetailsSlice() {
  const { t } = useTranslation('projects');
  const missing = useMissingSelection('exam');
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  const examId = typeof exam?.examId === 'number' ? exam.examId : null;
  if (missing || examId === null) {
    if (missing === 'project') return <NoProjectState />;
    return (
      <section aria-labelledby="exam-details-title">
        <PageHeader id="exam-details-title" title={t('nav.examDetails', { ns: 'common' })} description={t('sliceHint.examDetails')} />
        <div className={card}>
          <ChooseFirst missing="exam" />
        </div>
      </section>
    );
  }
  return <ExamDetails key={examId} examId={examId} />;
}

function ProjectHistorySlice() {
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  const projectId = typeof project?.projectId === 'number' ? project.projectId : null;
  if (projectId === null) return <NoProjectState />;
  return <ProjectHistory key={projectId} projectId={projectId} name={String(project?.name ?? '')} />;
}

export const WorkspaceOverviewPage = () => gated(<WorkspaceOverview />);
export const WorkspacePlaceholderPage = () => gated(<SlicePlaceholderPage />);
export const ItemTypesPage = () => gated(<ConfigPage part="itemTypes" />);
export const CategoriesPage = () => gated(<ConfigPage part="categories" />);
export const FlowsPage = () => gated(<ConfigPage part="flows" />);
export const MyPermissionsPage = () => gated(<MyPermissions />);
export const TemplatesPage = () => gated(<Templates />);
export const ExamDetailsPage = () => gated(<ExamDetailsSlice />);
export const ProjectHistoryPage = () => gated(<ProjectHistorySlice />);
