import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Link } from '#src/components/ui/link.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { myResultsApi, type ResultSummary } from './api/results-api.ts';
import { ResultView } from './result-view.tsx';
import { GatedMarkingPage } from './marking-queue.tsx';
import { ResultsConsole } from './results-console.tsx';
import { useHasPermission } from '#src/app/use-permission.ts';

/** /results — the candidate's published results (issue 20); /results?result=7 one of them. */
function MyResultsPage() {
  const { t } = useTranslation('delivery', { keyPrefix: 'results' });
  const format = useFormat();
  const [rows, setRows] = useState<ResultSummary[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const errorText = useErrorText(error);
  const staff = useHasPermission(P.Exams.View);
  const load = useCallback(() => {
    setError(null);
    myResultsApi.list().then(setRows, (failure: unknown) => setError(failure ?? new Error('failed')));
  }, []);
  useEffect(load, [load]);
  return (
    <section>
      <PageHeader
        title={t('mine.title')}
        description={t('mine.description')}
        actions={
          staff ? (
            <>
              <Link to="/results?view=marking">{t('marking.title')}</Link>
              <Link to="/results?view=console">{t('console.title')}</Link>
            </>
          ) : null
        }
      />
      {error ? (
        <ErrorState message={errorText} onRetry={load} />
      ) : !rows ? (
        <LoadingState label={t('loading')} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('mine.empty')} />
      ) : (
        <ul className={css({ display: 'grid', gap: '3', listStyle: 'none', p: 0 })}>
          {rows.map((r) => (
            <li key={r.resultId} className={card} data-testid={`result-${r.resultId}`}>
              <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', justifyContent: 'space-between', alignItems: 'center' })}>
                <div>
                  <p className={css({ fontWeight: 'semibold' })}>
                    <Link to={`/results?result=${r.resultId}`}>
                      {r.examName} · {r.paperCode} · {r.paperTitle}
                    </Link>
                  </p>
                  <p className={css({ color: 'fg.muted' })}>
                    {t('mine.score', { total: format.number(r.total), max: format.number(r.maxTotal), percent: format.number(r.percent) })}
                    {r.publishedAt ? ` · ${t('mine.publishedOn', { date: format.dateTime(r.publishedAt) })}` : ''}
                  </p>
                </div>
                <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
                  {r.grade ? <Badge>{t('grade', { grade: r.grade })}</Badge> : null}
                  <Badge>{r.passed ? t('passed') : t('failed')}</Badge>
                  {r.status !== 'Published' ? <Badge>{t(`status.${r.status}`)}</Badge> : null}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export default function GatedMyResultsPage() {
  const [params] = useSearchParams();
  const resultId = Number(params.get('result'));
  const view = params.get('view');
  if (view === 'marking') return <GatedMarkingPage />;
  if (view === 'console')
    return (
      <PermissionGate permission={P.Exams.View}>
        <ResultsConsole />
      </PermissionGate>
    );
  return <PermissionGate permission={P.Dashboard.View}>{resultId > 0 ? <ResultView resultId={resultId} /> : <MyResultsPage />}</PermissionGate>;
}
