import { PageSkeleton } from '#src/components/ui/skeleton.tsx';
import { Steps } from '@ark-ui/react/steps';
import { forwardRef, useState, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { projectStore, showProjectConfigStepperStore } from '#src/app/stores/slices.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { projectsApi } from './api/projects-api.ts';
import { BasicsEditor } from './components/basics-editor.tsx';
import { CategoriesEditor } from './components/categories-editor.tsx';
import { FlowsEditor } from './components/flows-editor.tsx';
import { ItemTypesEditor } from './components/item-types-editor.tsx';
import { NoProjectState } from './components/no-grant.tsx';
import { SaveTemplateDialog } from './components/save-template-dialog.tsx';
import { TeamPanel } from './components/team-panel.tsx';
import { useProjectConfig } from './use-project-config.ts';

/**
 * A step's wrapper inside the tablist without `aria-current`: the list's children must be tabs
 * (axe aria-required-children), and the tab itself already says which step is selected.
 */
const StepItem = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function StepItem({ 'aria-current': _current, ...rest }, ref) {
  return <div ref={ref} {...rest} />;
});

export const setupSteps = ['basics', 'itemTypes', 'categories', 'flows', 'team'] as const;

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

/** The project set-up stepper (issue 15): basics → item types → categories → flows → team → done. */
function ProjectSetup({ projectId }: { projectId: number }) {
  const { t } = useTranslation('projects');
  const navigate = useNavigate();
  const config = useProjectConfig(projectId);
  const errorText = useErrorText(config.error);
  const showStepper = useStoreValue(showProjectConfigStepperStore, (s) => s.context.show);
  const [step, setStep] = useState(0);
  const [busy, setBusy] = useState(false);
  const [savingTemplate, setSavingTemplate] = useState(false);
  const { detail } = config;

  if (!detail) return errorText ? <p role="alert">{errorText}</p> : <PageSkeleton />;

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

  return (
    <section aria-labelledby="setup-title">
      <PageHeader id="setup-title" title={t('setup.title', { name: detail.name })} description={t('setup.intro')} />
      <div className={card}>
        <Steps.Root
          count={setupSteps.length}
          step={step}
          onStepChange={(details) => setStep(details.step)}
          className={css({ p: '4', display: 'grid', gap: '4' })}
        >
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
            <p className={css({ py: '2', fontSize: 'sm' })}>
              {t('field.status')}: <span data-testid="setup-status">{t(`status.${detail.status}`)}</span>
            </p>
            <BasicsEditor key={detail.version} project={detail} onSaved={config.replaceDetail} onReload={config.reload} />
          </Steps.Content>
          <Steps.Content index={1} data-testid="setup-itemTypes">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.itemTypesCount', { n: config.itemTypes.length })}</h2>
            <ItemTypesEditor projectId={projectId} itemTypes={config.itemTypes} canEdit={detail.canConfigure} onChanged={config.reload} />
          </Steps.Content>
          <Steps.Content index={2} data-testid="setup-categories">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.categoriesCount', { n: config.categories.length })}</h2>
            <CategoriesEditor projectId={projectId} categories={config.categories} canEdit={detail.canConfigure} onChanged={config.reload} />
          </Steps.Content>
          <Steps.Content index={3} data-testid="setup-flows">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.flowsCount', { n: config.flows.length })}</h2>
            <FlowsEditor projectId={projectId} flows={config.flows} canEdit={detail.canConfigure} onChanged={config.reload} />
          </Steps.Content>
          <Steps.Content index={4} data-testid="setup-team">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.step.team')}</h2>
            <TeamPanel canManage={detail.canConfigure} />
          </Steps.Content>
          <Steps.CompletedContent data-testid="setup-done">
            <h2 className={css({ fontWeight: 'semibold' })}>{t('setup.doneTitle')}</h2>
            <p>
              {t('setup.doneSummary', {
                itemTypes: config.itemTypes.length,
                categories: config.categories.length,
                flows: config.flows.length,
                team: detail.setup.team,
              })}
            </p>
            <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', pt: '2' })}>
              {detail.actions.includes('project.activate') ? (
                <Button onClick={() => void activate()} loading={busy} data-testid="setup-activate">
                  {t('setup.activate')}
                </Button>
              ) : null}
              <Button variant="outline" onClick={() => void finish()} loading={busy} data-testid="setup-finish">
                {t('setup.finish')}
              </Button>
              {detail.canConfigure ? (
                <Button variant="ghost" onClick={() => setSavingTemplate(true)} data-testid="save-template">
                  {t('templates.saveTitle')}
                </Button>
              ) : null}
            </div>
          </Steps.CompletedContent>

          <Checkbox
            checked={showStepper}
            onChange={(checked) => (checked ? showProjectConfigStepperStore.trigger.remove() : showProjectConfigStepperStore.trigger.update({ show: false }))}
            testId="show-stepper"
          >
            {t('setup.showStepper')}
          </Checkbox>
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
      {savingTemplate ? <SaveTemplateDialog projectId={projectId} projectName={detail.name} onClose={() => setSavingTemplate(false)} /> : null}
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
