import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
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

/**
 * A screen of the selected project, opened with none selected. In place of a whole page it is
 * the page (its heading says so); inside a page that has its heading, `inPage` leaves it out.
 */
export function NoProjectState({ inPage = false }: { inPage?: boolean }) {
  const { t } = useTranslation('projects');
  const link = (
    <Link to="/projects" className={css({ color: 'primary.dark', textDecoration: 'underline' })}>
      {t('empty.chooseProject')}
    </Link>
  );
  if (inPage) {
    return (
      <div data-testid="no-project">
        <EmptyState title={t('empty.noProjectTitle')}>{link}</EmptyState>
      </div>
    );
  }
  return (
    <section data-testid="no-project" aria-labelledby="no-project-title">
      <PageHeader id="no-project-title" title={t('empty.noProjectTitle')} />
      <div className={card}>
        <EmptyState title={t('empty.whatToDo')}>{link}</EmptyState>
      </div>
    </section>
  );
}
