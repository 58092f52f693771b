import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextAreaField } from '#src/components/ui/field.tsx';
import { failureText } from '../lib/call-failure.ts';

/** Asks for the reason an action needs (reject, cancel, reopen registration), then runs it; the server's refusal stays in the dialog. */
export function ReasonDialog({
  title,
  label,
  confirmLabel,
  onClose,
  onSubmit,
}: {
  title: string;
  label: string;
  confirmLabel: string;
  onClose: () => void;
  onSubmit: (reason: string) => Promise<unknown>;
}) {
  const { t } = useTranslation('seasons');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Dialog
      title={title}
      onClose={onClose}
      busy={busy}
      testId="reason-dialog"
      onSubmit={(event) => {
        event.preventDefault();
        setShown(true);
        if (!reason.trim()) return;
        setBusy(true);
        setFailure(null);
        onSubmit(reason.trim())
          .then(onClose, async (error: unknown) => setFailure(await failureText(error, t('action.failed'))))
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="reason-confirm">
            {confirmLabel}
          </Button>
        </>
      }
    >
      <TextAreaField
        label={label}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        rows={3}
        maxLength={2000}
        required
        error={shown && !reason.trim() ? t('action.reasonRequired') : undefined}
        data-testid="reason-text"
      />
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })}>
          {failure}
        </p>
      ) : null}
    </Dialog>
  );
}
