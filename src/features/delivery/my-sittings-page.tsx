import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { deliveryApi, type Sitting } from './api/delivery-api.ts';

/** /sit — the papers the candidate sits online (admit card issued), and opening one (issue 19). */
function MySittingsPage() {
  const { t } = useTranslation('delivery');
  const format = useFormat();
  const navigate = useNavigate();
  const [rows, setRows] = useState<Sitting[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [opening, setOpening] = useState<string | null>(null);
  const errorText = useErrorText(error);
  const load = useCallback(() => {
    setError(null);
    deliveryApi.sittings().then(setRows, (failure: unknown) => setError(failure ?? new Error('failed')));
  }, []);
  useEffect(load, [load]);
  return (
    <section>
      <PageHeader title={t('list.title')} description={t('list.description')} />
      {error ? (
        <ErrorState message={errorText} onRetry={load} />
      ) : !rows ? (
        <LoadingState label={t('loading')} />
      ) : rows.length === 0 ? (
        <EmptyState title={t('list.empty')} />
      ) : (
        <ul className={css({ display: 'grid', gap: '3', listStyle: 'none', p: 0 })}>
          {rows.map((r) => {
            const key = `${r.registrationId}-${r.seasonPaperId}`;
            return (
              <li key={key} className={card} data-testid={`sitting-${key}`}>
                <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', justifyContent: 'space-between', alignItems: 'center' })}>
                  <div>
                    <p className={css({ fontWeight: 'semibold' })}>
                      {r.paperCode} · {r.paperTitle}
                    </p>
                    <p className={css({ color: 'fg.muted' })}>
                      {r.examName} · {r.seasonName} · {format.dateTime(r.startsAt)} · {t('list.minutes', { count: r.durationMinutes })}
                    </p>
                  </div>
                  <div className={css({ display: 'flex', gap: '2', alignItems: 'center' })}>
                    {r.status ? <Badge>{t(`status.${r.status}`)}</Badge> : null}
                    <Button
                      data-testid={`sit-${key}`}
                      loading={opening === key}
                      onClick={() => {
                        setOpening(key);
                        deliveryApi
                          .open(r.registrationId, r.seasonPaperId)
                          .then((d) => navigate(`/sit/${d.deliveryId}`), setError)
                          .finally(() => setOpening(null));
                      }}
                    >
                      {r.status && ['Submitted', 'TimeUp', 'Terminated'].includes(r.status) ? t('list.receipt') : t('list.open')}
                    </Button>
                  </div>
                </div>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export default function GatedMySittingsPage() {
  return (
    <PermissionGate permission={P.Dashboard.View}>
      <MySittingsPage />
    </PermissionGate>
  );
}
