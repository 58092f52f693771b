import { Steps } from '@ark-ui/react/steps';
import { forwardRef, useCallback, useEffect, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { projectStore, showProjectConfigStepperStore } from '#src/app/stores/slices.ts';
import { selectProject } from '#src/app/stores/workspace-selection.ts';
import { Button } from '#src/components/ui/button.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { LoadingState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { PermissionGate } from '../users/components/permission-gate.tsx';
import { projectsApi, type Category, type Flow, type ItemType, type ProjectDetail } from './api/projects-api.ts';
import { NoProjectState } from './components/no-grant.tsx';
import { TeamPanel } from './components/team-panel.tsx';

/**
 * A step's wrapper inside the tablist without `aria-current`: the list's children must be tabs
 * (axe aria-required-children), and the tab itself already says which step is selected.
 */
const StepItem = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function StepItem({ 'aria-current': _current, ...rest }, ref) {
  return <div ref={ref} {...rest} />;
});

export const setupSteps = ['basics', 'itemTypes', 'categories', 'flows', 'team'] as const;

const list = css({ display: 'grid', gap: '1', py: '2', listStyle: 'disc', ps: '6' });
const stepButton = css({
  display: 'flex',
  alignItems: 'center',
  gap: '2',
  px: '3',
  py: '2',
  borderRadius: 'md',
  cursor: 'pointer',
  fontSize: 'sm',
  '&[data-current]': { bg: 'primary.lighter', color: 'primary.darker', fontWeight: 'semibold' },
  '&[data-complete]': { color: 'fg.default' },
});

/** What the project holds now: the counts behind each step, read again as the user moves on. */
function useProjectConfig(projectId: number) {
  const [detail, setDetail] = useState<ProjectDetail | null>(null);
  const [itemTypes, setItemTypes] = useState<ItemType[]>([]);
  const [categories, setCategories] = useState<Category[]>([]);
  const [flows, setFlows] = useState<Flow[]>([]);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    try {
      const [d, i, c, f] = await Promise.all([projectsApi.get(projectId), projectsApi.itemTypes(projectId), projectsApi.categories(projectId), projectsApi.flows(projectId)]);
      setDetail(d);
      setItemTypes(i);
      setCategories(c);
      setFlows(f);
      setError(null);
      // The same project with a fresher payload: the exam and lower selections stay.
      selectProject(d as unknown as Record<string, unknown>);
    } catch (failure) {
      setError(failure);
    }
  }, [projectId]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { detail, itemTypes, categories, flows, error, reload };
}

/** The project set-up stepper (issue 15): basics → item types → categories → flows → team → done. */
function ProjectSetup({ projectId }: { projectId: number }) {
  const { t } = useTranslation('projects');
  const navigate = useNavigate();
  const config = useProjectConfig(projectId);
  const errorText = useErrorText(config.error);
  const showStepper = useStoreValue(showProjectConfigStepperStore, (s) => s.context.show);
  const [step, setStep] = useState(0);
  const [newCategory, setNewCategory] = useState('');
  const [busy, setBusy] = useState(false);
  const { detail } = config;

  if (!detail) return errorText ? <p role="alert">{errorText}</p> : <LoadingState />;

  const act = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      void notify.success(done);
      await config.reload();
    } catch (error) {
      void notify.error(error);
    } finally {
      setBusy(false);
    }
  };

  const finish = async () => {
    if (detail.status === 'Draft') await act(() => projectsApi.transition(projectId, 'project.startSetup', detail.version), t('setup.setupStarted'));
    navigate('/exams');
  };
  const activate = () => act(() => projectsApi.transition(projectId, 'project.activate', detail.version), t('setup.activated'));

  const topLevel = config.categories.filter((c) => c.parentId === null && !c.isRetired);

  return (
    <section aria-labelledby="setup-title">
      <PageHeader id="setup-title" title={t('setup.title', { name: detail.name })} description={t('setup.intro')} />
      <div className={card}>
        <Steps.Root count={setupSteps.length} step={step} onStepChange={(details) => setStep(details.step)} className={css({ p: '4', display: 'grid', gap: '4' })}>
          <Steps.List className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })} aria-label={t('setup.stepsLabel')}>
            {setupSteps.map((name, index) => (
              <Steps.Item key={name} index={index} asChild>
                <StepItem>
                  <Steps.Trigger className={stepButton} data-testid={`step-${name}`}>
                    <Steps.Indicator className={css({ fontWeight: 'bold' })}>{index + 1}</Steps.Indicator>
                    {t(`setup.step.${name}`)}
                  </Steps.Trigger>
                </StepItem>
              </Steps.Item>
            ))}
          </Steps.List>

          <Steps.Content index={0} data-testid="setup-basics">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.step.basics')}</h2>
            <dl className={css({ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '2', py: '2' })}>
              <dt>{t('field.code')}</dt>
              <dd>{detail.code}</dd>
              <dt>{t('field.name')}</dt>
              <dd>{detail.name}</dd>
              <dt>{t('field.status')}</dt>
              <dd data-testid="setup-status">{t(`status.${detail.status}`)}</dd>
              <dt>{t('field.languages')}</dt>
              <dd>{detail.languages.join(', ')}</dd>
            </dl>
          </Steps.Content>
          <Steps.Content index={1} data-testid="setup-itemTypes">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.itemTypesCount', { n: config.itemTypes.length })}</h2>
            <ul className={list}>
              {config.itemTypes.map((type) => (
                <li key={type.itemTypeId}>{t('setup.itemTypeLine', { name: type.name, correct: type.marking.correct, wrong: type.marking.wrong })}</li>
              ))}
            </ul>
          </Steps.Content>
          <Steps.Content index={2} data-testid="setup-categories">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.categoriesCount', { n: config.categories.length })}</h2>
            <ul className={list}>
              {topLevel.map((category) => (
                <li key={category.categoryId}>
                  {category.name} ({t('setup.subCategories', { n: config.categories.filter((c) => c.parentId === category.categoryId).length })})
                </li>
              ))}
            </ul>
            {detail.canConfigure ? (
              <form
                className={css({ display: 'flex', gap: '2', alignItems: 'end' })}
                onSubmit={(event) => {
                  event.preventDefault();
                  if (!newCategory.trim()) return;
                  void act(() => projectsApi.createCategory(projectId, { name: newCategory.trim(), parentId: null }), t('setup.categoryAdded', { name: newCategory.trim() })).then(() => setNewCategory(''));
                }}
              >
                <label className={css({ display: 'grid', gap: '1', fontSize: 'sm' })}>
                  {t('setup.newCategory')}
                  <input value={newCategory} onChange={(e) => setNewCategory(e.target.value)} maxLength={200} className={css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'md', px: '2', py: '1' })} />
                </label>
                <Button type="submit" variant="outline" loading={busy}>
                  {t('setup.addCategory')}
                </Button>
              </form>
            ) : null}
          </Steps.Content>
          <Steps.Content index={3} data-testid="setup-flows">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.flowsCount', { n: config.flows.length })}</h2>
            <ul className={list}>
              {config.flows.map((flow) => (
                <li key={flow.flowId}>
                  {flow.name}: {flow.definition.stages.map((stage) => stage.name).join(' → ')}
                </li>
              ))}
            </ul>
          </Steps.Content>
          <Steps.Content index={4} data-testid="setup-team">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.step.team')}</h2>
            <TeamPanel canManage={detail.canConfigure} />
          </Steps.Content>
          <Steps.CompletedContent data-testid="setup-done">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.doneTitle')}</h2>
            <p>{t('setup.doneSummary', { itemTypes: config.itemTypes.length, categories: config.categories.length, flows: config.flows.length, team: detail.setup.team })}</p>
            <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', pt: '2' })}>
              {detail.actions.includes('project.activate') ? (
                <Button onClick={() => void activate()} loading={busy} data-testid="setup-activate">
                  {t('setup.activate')}
                </Button>
              ) : null}
              <Button variant="outline" onClick={() => void finish()} loading={busy} data-testid="setup-finish">
                {t('setup.finish')}
              </Button>
            </div>
          </Steps.CompletedContent>

          <label className={css({ display: 'flex', gap: '2', alignItems: 'center', fontSize: 'sm' })}>
            <input
              type="checkbox"
              checked={showStepper}
              onChange={(e) => (e.target.checked ? showProjectConfigStepperStore.trigger.remove() : showProjectConfigStepperStore.trigger.update({ show: false }))}
              data-testid="show-stepper"
            />
            {t('setup.showStepper')}
          </label>
          <div className={css({ display: 'flex', justifyContent: 'space-between' })}>
            <Steps.PrevTrigger asChild>
              <Button variant="ghost">{t('setup.back')}</Button>
            </Steps.PrevTrigger>
            <Steps.NextTrigger asChild>
              <Button data-testid="setup-next">{t('setup.next')}</Button>
            </Steps.NextTrigger>
          </div>
        </Steps.Root>
      </div>
    </section>
  );
}

function ProjectSetupPage() {
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  const projectId = typeof project?.projectId === 'number' ? project.projectId : null;
  if (projectId === null) return <NoProjectState />;
  return <ProjectSetup key={projectId} projectId={projectId} />;
}

export default function GatedProjectSetupPage() {
  return (
    <PermissionGate permission={P.Projects.View}>
      <ProjectSetupPage />
    </PermissionGate>
  );
}
