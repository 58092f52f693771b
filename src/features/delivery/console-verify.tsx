import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { card } from '#src/components/ui/page-header.tsx';
import { consoleApi, type ConsoleVerdict } from './api/delivery-api.ts';

/**
 * The check at the door (docs/decisions/0249): the invigilator scans the admit card's QR code
 * into the field (a scanner types it, then Enter) or types the code printed beside it; the
 * server's one verifier says whether it is valid for this paper and center, and who it is.
 * A valid card whose delivery may still be admitted early shows the Admit button.
 */
export function AdmitCheck({ seasonPaperId, centerId, onAdmitted }: { seasonPaperId: number; centerId?: number; onAdmitted: () => void }) {
  const { t } = useTranslation('delivery');
  const [token, setToken] = useState('');
  const [verdict, setVerdict] = useState<ConsoleVerdict | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState(false);
  const [admitted, setAdmitted] = useState(false);

  const check = () => {
    if (!token.trim()) return;
    setBusy(true);
    setFailed(false);
    setVerdict(null);
    setAdmitted(false);
    consoleApi
      .verify(token, seasonPaperId, centerId)
      .then(setVerdict, () => setFailed(true))
      .finally(() => setBusy(false));
  };
  const admit = (deliveryId: number) => {
    setBusy(true);
    setFailed(false);
    consoleApi
      .act(deliveryId, 'delivery.admit')
      .then(
        () => {
          setAdmitted(true);
          onAdmitted();
        },
        () => setFailed(true),
      )
      .finally(() => setBusy(false));
  };
  const canAdmit = verdict?.verdict === 'valid' && verdict.delivery?.actions.includes('delivery.admit') && !admitted;

  return (
    <section className={css({ mb: '4' })} aria-labelledby="admit-check-title">
      <h2 id="admit-check-title" className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '2' })}>
        {t('console.verify.title')}
      </h2>
      <form
        className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'flex-end' })}
        onSubmit={(e) => {
          e.preventDefault();
          check();
        }}
      >
        <TextField
          label={t('console.verify.code')}
          hint={t('console.verify.hint')}
          value={token}
          onChange={(e) => setToken(e.target.value)}
          autoComplete="off"
          spellCheck={false}
          data-testid="admit-check-code"
          className={css({ flex: '1', minWidth: '16rem' })}
        />
        <Button type="submit" loading={busy} disabled={!token.trim()} data-testid="admit-check-verify">
          {t('console.verify.check')}
        </Button>
      </form>
      <div aria-live="polite" data-testid="admit-check-result">
        {failed ? <p role="alert">{t('console.verify.failed')}</p> : null}
        {verdict ? (
          <div className={card} data-verdict={verdict.verdict}>
            <p className={css({ fontWeight: 'semibold' })}>{t(`console.verify.verdict.${verdict.verdict}`)}</p>
            {verdict.candidate ? (
              <p>
                {t('console.verify.candidate', {
                  name: verdict.candidate.name,
                  roll: verdict.candidate.rollNumber,
                  center: verdict.candidate.center,
                  seat: verdict.candidate.seatNumber,
                })}
              </p>
            ) : null}
            {verdict.verdict === 'valid' && !verdict.delivery ? <p>{t('console.verify.notOpened')}</p> : null}
            {verdict.delivery ? <p>{t('console.verify.delivery', { status: t(`status.${verdict.delivery.timing.status}`) })}</p> : null}
            {canAdmit ? (
              <Button onClick={() => admit(verdict.delivery!.deliveryId)} loading={busy} data-testid="admit-check-admit">
                {t('console.verify.admit', { name: verdict.candidate?.name ?? '' })}
              </Button>
            ) : null}
            {admitted ? <p>{t('console.verify.admitted')}</p> : null}
          </div>
        ) : null}
      </div>
    </section>
  );
}
