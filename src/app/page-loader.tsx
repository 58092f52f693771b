import { useTranslation } from 'react-i18next';
import { PageSkeleton } from '#src/components/ui/skeleton.tsx';

/** The loading state of a route whose code is on its way: a skeleton of a page (issue 23), not a spinner. */
export function PageLoader() {
  const { t } = useTranslation();
  return <PageSkeleton label={t('shell.loading')} />;
}
