import { useTranslation } from 'react-i18next';
import { Button } from './button.tsx';
import type { ConfirmOptions } from './confirm-dialog.tsx';
import { Dialog } from './dialog.tsx';

/**
 * The question before a destructive action, as an alert dialog: Cancel has the focus, so Enter
 * or Escape never destroys anything by accident.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  tone = 'danger',
  busy = false,
  onConfirm,
  onCancel,
}: ConfirmOptions & { busy?: boolean; onConfirm: () => void; onCancel: () => void }) {
  const { t } = useTranslation('ui');
  return (
    <Dialog
      role="alertdialog"
      size="sm"
      title={title}
      onClose={onCancel}
      busy={busy}
      testId="confirm-dialog"
      footer={
        <>
          <Button variant="ghost" onClick={onCancel} disabled={busy} data-autofocus>
            {t('cancel')}
          </Button>
          <Button variant={tone === 'danger' ? 'danger' : 'solid'} onClick={onConfirm} loading={busy}>
            {confirmLabel ?? t('confirm')}
          </Button>
        </>
      }
    >
      <p>{message}</p>
    </Dialog>
  );
}
