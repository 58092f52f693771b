import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { registrationStore } from '#src/app/stores/slices.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { FileUpload } from '#src/components/ui/file-upload.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { DownloadButton, PermissionGate } from '#src/features/users/index.ts';
import { registrationsApi, type Registration } from './api/seasons-api.ts';
import { ReasonDialog } from './components/reason-dialog.tsx';
import { failureText } from './lib/call-failure.ts';
import { useLanguageName } from './lib/language-name.ts';
import { registrationTone } from './lib/registration-tone.ts';

const DOCUMENT = '.pdf,.png,.jpg,.jpeg,application/pdf,image/png,image/jpeg';

/** The supporting document of asked-for accommodations: attach one while they wait for a decision. */
function DocumentUpload({ registration, onDone }: { registration: Registration; onDone: () => void }) {
  const { t } = useTranslation('seasons');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  return (
    <div className={css({ display: 'grid', gap: '2' })}>
      <FileUpload
        label={t('acc.document')}
        hint={t('acc.documentHint')}
        files={files}
        onChange={setFiles}
        maxFiles={1}
        maxBytes={5 * 1024 * 1024}
        accept={DOCUMENT}
        disabled={busy}
      />
      <div>
        <Button
          size="sm"
          variant="outline"
          disabled={!files.length}
          loading={busy}
          onClick={() => {
            setBusy(true);
            registrationsApi
              .uploadDocument(registration.registrationId, files[0])
              .then(
                () => {
                  void notify.success(t('acc.documentSaved'));
                  setFiles([]);
                  onDone();
                },
                async (error: unknown) => void notify.error(await failureText(error, t('action.failed'))),
              )
              .finally(() => setBusy(false));
          }}
        >
          {t('acc.attach')}
        </Button>
      </div>
    </div>
  );
}

/** A candidate's registrations with their state (issue 18): reasons, center and roll number, the admit card, cancelling. */
function MyRegistrationsPage() {
  const { t } = useTranslation('seasons');
  const format = useFormat();
  const languageName = useLanguageName();
  const [rows, setRows] = useState<Registration[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [cancelling, setCancelling] = useState<Registration | null>(null);
  const errorText = useErrorText(error);
  const load = useCallback(() => {
    setError(null);
    registrationsApi.mine().then(setRows, (failure: unknown) => setError(failure ?? new Error('failed')));
  }, []);
  useEffect(() => load(), [load]);

  return (
    <section aria-labelledby="mine-title">
      <PageHeader
        id="mine-title"
        title={t('mine.title')}
        description={t('mine.intro')}
        actions={
          <Link
            to="/registrations/register"
            className={css({ color: 'primary.dark', textDecoration: 'underline', fontWeight: 'semibold' })}
            data-testid="register-link"
          >
            {t('mine.register')}
          </Link>
        }
      />
      {error ? (
        <ErrorState message={errorText} onRetry={load} />
      ) : !rows ? (
        <LoadingState />
      ) : !rows.length ? (
        <EmptyState title={t('mine.empty')}>{t('mine.emptyHint')}</EmptyState>
      ) : (
        <ul className={css({ display: 'grid', gap: '3' })} aria-label={t('mine.title')}>
          {rows.map((r) => (
            <li key={r.registrationId} className={`${card} ${css({ p: '4', display: 'grid', gap: '2' })}`} data-testid={`my-registration-${r.registrationId}`}>
              <div className={css({ display: 'flex', justifyContent: 'space-between', gap: '3', flexWrap: 'wrap', alignItems: 'center' })}>
                <h2 className={css({ fontWeight: 'semibold', fontSize: 'lg' })}>{t('mine.heading', { exam: r.examName, season: r.seasonName })}</h2>
                <Badge tone={registrationTone[r.status]} testId={`my-status-${r.registrationId}`}>
                  {t(`regStatus.${r.status}`)}
                </Badge>
              </div>
              <p className={css({ fontSize: 'sm' })}>{t(`mine.explain.${r.status}`)}</p>
              {r.reason && (r.status === 'Rejected' || r.status === 'Cancelled') ? (
                <p className={css({ fontSize: 'sm', color: 'error.dark' })}>{t('mine.reason', { reason: r.reason })}</p>
              ) : null}
              <dl className={css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: '12rem 1fr' }, gap: '1', fontSize: 'sm' })}>
                <dt className={css({ fontWeight: 'semibold' })}>{t('register.papers')}</dt>
                <dd>{r.papers.map((p) => t('mine.paper', { code: p.paperCode, date: format.date(`${p.sitsOn}T12:00:00`), time: p.startsAt })).join('; ')}</dd>
                <dt className={css({ fontWeight: 'semibold' })}>{t('register.medium')}</dt>
                <dd>{languageName(r.medium)}</dd>
                <dt className={css({ fontWeight: 'semibold' })}>{t('register.city')}</dt>
                <dd>{r.preferredCity}</dd>
                {r.accommodationStatus !== 'none' ? (
                  <>
                    <dt className={css({ fontWeight: 'semibold' })}>{t('queue.accommodations')}</dt>
                    <dd>
                      {t(`accStatus.${r.accommodationStatus}`)}
                      {r.document ? ` · ${t('acc.withDocument', { name: r.document.fileName })}` : ''}
                    </dd>
                  </>
                ) : null}
                {r.center ? (
                  <>
                    <dt className={css({ fontWeight: 'semibold' })}>{t('queue.center')}</dt>
                    <dd>{t('mine.center', { name: r.center.name, address: r.center.address, city: r.center.city })}</dd>
                    <dt className={css({ fontWeight: 'semibold' })}>{t('mine.roll')}</dt>
                    <dd className={css({ fontFamily: 'mono' })} data-testid={`my-roll-${r.registrationId}`}>
                      {r.rollNumber}
                    </dd>
                  </>
                ) : null}
              </dl>
              {r.accommodationStatus === 'requested' ? <DocumentUpload registration={r} onDone={load} /> : null}
              <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                {r.status === 'AdmitCardIssued' ? (
                  <DownloadButton
                    label={t('mine.admitCard')}
                    ariaLabel={t('mine.admitCardOf', { exam: r.examName })}
                    fallbackName={`admit-card-${r.rollNumber}.pdf`}
                    fetchFile={(p) => registrationsApi.admitCardPdf(r.registrationId, p)}
                    variant="solid"
                    testId={`admit-card-${r.registrationId}`}
                  />
                ) : null}
                {r.actions.includes('registration.cancel') ? (
                  <Button variant="ghost" onClick={() => setCancelling(r)} data-testid={`my-cancel-${r.registrationId}`}>
                    {t('mine.cancel')}
                  </Button>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      )}
      {cancelling ? (
        <ReasonDialog
          title={t('mine.cancelTitle', { exam: cancelling.examName })}
          label={t('queue.reason')}
          confirmLabel={t('mine.cancel')}
          onClose={() => setCancelling(null)}
          onSubmit={async (reason) => {
            const answer = await registrationsApi.cancelMine(cancelling.registrationId, reason);
            registrationStore.trigger.update({ record: answer.record as unknown as Record<string, unknown> });
            void notify.success(t('mine.cancelled'));
            load();
          }}
        />
      ) : null}
    </section>
  );
}

export default function GatedMyRegistrationsPage() {
  return (
    <PermissionGate permission={P.Dashboard.View}>
      <MyRegistrationsPage />
    </PermissionGate>
  );
}
