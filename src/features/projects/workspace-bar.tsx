import { Menu as ArkMenu } from '@ark-ui/react/menu';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router-dom';
import { css } from '#styled-system/css';
import { defaultQuery } from '#machines/paged-search.machine.ts';
import { examStore, paperStore, projectStore, seasonStore } from '#src/app/stores/slices.ts';
import { selectPaper, selectProject, updateSeason } from '#src/app/stores/workspace-selection.ts';
import { Icon } from '#src/components/ui/icons.tsx';
import { MenuContent, MenuItem, MenuRoot, MenuSeparator, MenuTrigger } from '#src/components/ui/menu.tsx';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { papersApi } from '#src/features/papers/index.ts';
import { seasonsApi } from '#src/features/seasons/index.ts';
import { examsApi, projectsApi } from './api/projects-api.ts';
import { chooseExam } from './choose-exam.ts';
import { slicesOf, sliceTitleKey, workspaceLevels } from './workspace-slices.ts';

const bar = css({
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  gap: '1',
  px: { base: '2', sm: '4' },
  py: '1',
  bg: 'bg.surface',
  borderBottomWidth: '1px',
  borderColor: 'border',
  fontSize: 'sm',
});
const trigger = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1',
  px: '2',
  py: '1',
  borderRadius: 'md',
  cursor: 'pointer',
  color: 'fg.default',
  _hover: { bg: 'bg.hover' },
  _focusVisible: { outline: '2px solid', outlineColor: 'primary.main' },
});
const separator = css({ color: 'fg.muted', display: 'inline-flex', _rtl: { transform: 'scaleX(-1)' } });

interface Choice {
  id: number;
  label: string;
  record: Record<string, unknown>;
}

/** One part of the bar: the current choice as a menu trigger; opening it loads what one may switch to. */
function SwitchMenu({
  label,
  current,
  load,
  onChoose,
  more,
  testId,
}: {
  label: string;
  current: string;
  load: () => Promise<Choice[]>;
  onChoose: (choice: Choice) => void;
  more?: { label: string; onSelect: () => void };
  testId: string;
}) {
  const { t } = useTranslation('projects');
  const [choices, setChoices] = useState<Choice[] | null>(null);
  return (
    <MenuRoot
      lazyMount
      unmountOnExit
      onOpenChange={(details) => {
        if (!details.open) return;
        setChoices(null);
        load().then(setChoices, () => setChoices([]));
      }}
      onSelect={(details) => {
        if (details.value === '__more') return more?.onSelect();
        const choice = choices?.find((c) => String(c.id) === details.value);
        if (choice) onChoose(choice);
      }}
    >
      <MenuTrigger className={trigger} aria-label={t('bar.switch', { part: label, current })} data-testid={testId}>
        <span className={css({ color: 'fg.muted' })}>{label}:</span> <span className={css({ fontWeight: 'semibold' })}>{current}</span>
        <Icon name="chevron" size={14} className={css({ transform: 'rotate(90deg)' })} />
      </MenuTrigger>
      <MenuContent aria-label={label} data-testid={`${testId}-menu`}>
        {choices === null ? (
          <MenuItem value="__loading" disabled>
            {t('bar.loading')}
          </MenuItem>
        ) : choices.length === 0 ? (
          <MenuItem value="__none" disabled>
            {t('bar.nothing')}
          </MenuItem>
        ) : (
          choices.map((choice) => (
            <MenuItem key={choice.id} value={String(choice.id)}>
              {choice.label}
            </MenuItem>
          ))
        )}
        {more ? (
          <>
            <MenuSeparator />
            <MenuItem value="__more">{more.label}</MenuItem>
          </>
        ) : null}
      </MenuContent>
    </MenuRoot>
  );
}

/**
 * The workspace menu: every slice of the workspace (EXAMS.md §1), grouped by what it hangs
 * under; slices of a later issue are listed too and open their "not yet available" page.
 */
function GoToMenu({ hasExam }: { hasExam: boolean }) {
  const { t } = useTranslation('projects');
  const navigate = useNavigate();
  return (
    <MenuRoot lazyMount unmountOnExit positioning={{ placement: 'bottom-end' }} onSelect={(details) => navigate(details.value)}>
      <MenuTrigger className={trigger} data-testid="workspace-goto">
        {t('bar.goTo')}
        <Icon name="chevron" size={14} className={css({ transform: 'rotate(90deg)' })} />
      </MenuTrigger>
      <MenuContent aria-label={t('bar.goTo')} data-testid="workspace-goto-menu" className={css({ maxHeight: '70vh', overflowY: 'auto' })}>
        {workspaceLevels.map((level, index) => (
          <ArkMenu.ItemGroup key={level}>
            {index > 0 ? <MenuSeparator /> : null}
            <ArkMenu.ItemGroupLabel className={css({ px: '3', py: '1', fontSize: 'xs', fontWeight: 'semibold', color: 'fg.muted' })}>
              {t(`bar.level.${level}`)}
            </ArkMenu.ItemGroupLabel>
            {slicesOf(level).map((slice) => (
              <MenuItem key={slice.id} value={slice.path} data-testid={`goto-${slice.id}`}>
                {t(sliceTitleKey(slice), { ns: 'common' })}
                {!slice.available ? <span className={css({ color: 'fg.muted', fontSize: 'xs', ms: '2' })}>{t('bar.later')}</span> : null}
                {slice.available && (level === 'exam' || level === 'paper') && !hasExam ? (
                  <span className={css({ color: 'fg.muted', fontSize: 'xs', ms: '2' })}>{t('bar.needsExam')}</span>
                ) : null}
              </MenuItem>
            ))}
          </ArkMenu.ItemGroup>
        ))}
      </MenuContent>
    </MenuRoot>
  );
}

/** Where the season is part of the chain even before one is opened: the seasons and the registrations. */
const seasonScreens = /^\/workspace\/(seasons|registrations)(\/|$)/;

/**
 * The workspace bar under the header (EXAMS.md §3): the selected project › exam › paper, each a
 * menu to switch, and the season (docs/decisions/0236) once one is opened or on the seasons'
 * screens. Switching the project goes through the workspace chain, which clears the exam, the
 * season and everything under them.
 */
export function WorkspaceBar() {
  const { t } = useTranslation('projects');
  const navigate = useNavigate();
  const project = useStoreValue(projectStore, (s) => s.context.selected);
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  const paper = useStoreValue(paperStore, (s) => s.context.selected);
  const season = useStoreValue(seasonStore, (s) => s.context.selected);
  const { pathname } = useLocation();
  if (!project) return null;

  const chevron = (
    <span className={separator} aria-hidden="true">
      <Icon name="chevron" size={16} />
    </span>
  );
  return (
    <nav aria-label={t('bar.label')} className={bar} data-testid="workspace-bar">
      <SwitchMenu
        testId="workspace-project"
        label={t('bar.project')}
        current={String(project.name ?? project.code ?? '')}
        load={async () =>
          (await projectsApi.search({ ...defaultQuery, pageSize: 10, orderBy: ['updatedOn desc'] })).data.map((p) => ({
            id: p.projectId,
            label: `${p.code} · ${p.name}`,
            record: p as unknown as Record<string, unknown>,
          }))
        }
        onChoose={(choice) => {
          selectProject(choice.record);
          navigate('/exams');
        }}
        more={{ label: t('bar.allProjects'), onSelect: () => navigate('/projects') }}
      />
      {chevron}
      <SwitchMenu
        testId="workspace-exam"
        label={t('bar.exam')}
        current={exam ? String(exam.name ?? exam.code ?? '') : t('bar.none')}
        load={async () =>
          (await examsApi.search({ ...defaultQuery, pageSize: 20, orderBy: ['code asc'] })).data.map((e) => ({
            id: e.examId,
            label: `${e.code} · ${e.name}`,
            record: e as unknown as Record<string, unknown>,
          }))
        }
        onChoose={(choice) => void chooseExam({ ...choice.record, examId: choice.id })}
        more={{ label: t('bar.allExams'), onSelect: () => navigate('/exams') }}
      />
      {exam ? (
        <>
          {chevron}
          <SwitchMenu
            testId="workspace-paper"
            label={t('bar.paper')}
            current={paper ? String(paper.code ?? paper.title ?? '') : t('bar.none')}
            load={async () => {
              // The exam's papers: asked without a paper in the header (the list is of the exam).
              const papers = await papersApi.list();
              return papers.map((p) => ({ id: p.paperId, label: `${p.code} · ${p.title}`, record: { paperId: p.paperId, code: p.code, title: p.title } }));
            }}
            onChoose={(choice) => {
              selectPaper(choice.record);
              navigate(`/workspace/papers/${choice.id}`);
            }}
            more={{ label: t('bar.allPapers'), onSelect: () => navigate('/workspace/papers') }}
          />
        </>
      ) : null}
      {season || seasonScreens.test(pathname) ? (
        <>
          <span className={css({ color: 'fg.muted', px: '1' })} aria-hidden="true">
            ·
          </span>
          <SwitchMenu
            testId="workspace-season"
            label={t('bar.season')}
            current={season ? String(season.name ?? season.code ?? '') : t('bar.none')}
            load={async () =>
              (await seasonsApi.all()).data.map((s) => ({ id: s.seasonId, label: `${s.code} · ${s.name}`, record: s as unknown as Record<string, unknown> }))
            }
            onChoose={(choice) => {
              updateSeason(choice.record);
              navigate(`/workspace/seasons/${choice.id}`);
            }}
            more={{ label: t('bar.allSeasons'), onSelect: () => navigate('/workspace/seasons') }}
          />
        </>
      ) : null}
      <span className={css({ flex: '1' })} />
      <GoToMenu hasExam={exam !== null} />
    </nav>
  );
}
