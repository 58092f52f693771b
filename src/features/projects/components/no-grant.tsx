import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { css } from '#styled-system/css';
import { EmptyState } from '#src/components/ui/states.tsx';

/** What a user sees where they hold no exam permission: whom to ask, never a broken page. */
export function NoGrantState({ manager }: { manager: boolean }) {
  const { t } = useTranslation('projects');
  return (
    <div data-testid="no-grant">
      <EmptyState title={manager ? t('empty.managerTitle') : t('empty.noGrantTitle')}>{manager ? t('empty.managerHint') : t('empty.noGrantHint')}</EmptyState>
    </div>
  );
}

/** A screen of the selected project, opened with none selected. */
export function NoProjectState() {
  const { t } = useTranslation('projects');
  return (
    <div data-testid="no-project">
      <EmptyState title={t('empty.noProjectTitle')}>
        <Link to="/projects" className={css({ color: 'primary.dark', textDecoration: 'underline' })}>
          {t('empty.chooseProject')}
        </Link>
      </EmptyState>
    </div>
  );
}
