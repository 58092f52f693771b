import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';

const link = css({ color: 'primary.dark', textDecoration: 'underline' });

/** A paper screen opened before an exam is chosen (papers hang under an exam, EXAMS.md §1). */
export function ChooseExamState() {
  const { t } = useTranslation('papers');
  return (
    <section aria-labelledby="papers-choose-title" data-testid="choose-exam">
      <PageHeader id="papers-choose-title" title={t('nav.papers', { ns: 'common' })} />
      <div className={card}>
        <EmptyState title={t('list.chooseExam')}>
          <Link to="/exams" className={link}>
            {t('list.chooseExamLink')}
          </Link>
        </EmptyState>
      </div>
    </section>
  );
}

/** The sections or sets slice opened with no paper chosen: where to choose one. */
export function ChoosePaperState({ slice }: { slice: 'sections' | 'sets' }) {
  const { t } = useTranslation('papers');
  return (
    <section aria-labelledby="papers-choose-title" data-testid="choose-paper">
      <PageHeader id="papers-choose-title" title={t(`nav.${slice}`, { ns: 'common' })} />
      <div className={card}>
        <EmptyState title={t('list.choosePaper')}>
          <Link to="/workspace/papers" className={link}>
            {t('list.choosePaperLink')}
          </Link>
        </EmptyState>
      </div>
    </section>
  );
}
