import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { titleOf, type TextKey } from './route-handle.ts';
import { useRouteMatches } from './use-route-matches.ts';

function TitleText({ title }: { title: TextKey | undefined }) {
  const { t } = useTranslation(title?.ns ?? 'common');
  const app = t('app.name', { ns: 'common' });
  const text = title ? `${t(title.key)} · ${app}` : app;
  useEffect(() => {
    document.title = text;
  }, [text]);
  return null;
}

/** `document.title` per page, translated: "Users · Exam Portal" (the route table's `handle.title`). */
export function DocumentTitle() {
  const title = titleOf(useRouteMatches());
  // The title's namespace may still be loading; the page does not wait for it.
  return (
    <Suspense fallback={null}>
      <TitleText title={title} />
    </Suspense>
  );
}
