import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';

export interface ConfirmOptions {
  title: ReactNode;
  /** What happens, in a sentence the user can check (names the user, the file, the ticket). */
  message: ReactNode;
  /** The verb of the action ("Deactivate", "Delete"); "Confirm" when absent. */
  confirmLabel?: string;
  /** Destructive actions get the danger button. */
  tone?: 'danger' | 'primary';
}

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

/**
 * `await confirm({...})` in place of `window.confirm`: resolves true when the user confirms,
 * false when they cancel or dismiss. Render `element` once in the screen.
 */
export function useConfirm(): { confirm: (options: ConfirmOptions) => Promise<boolean>; element: ReactNode } {
  const [pending, setPending] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);

  const settle = useCallback((answer: boolean) => {
    resolver.current?.(answer);
    resolver.current = null;
    setPending(null);
  }, []);

  const confirm = useCallback((options: ConfirmOptions) => {
    // A second question replaces an unanswered first one, which counts as cancelled.
    resolver.current?.(false);
    setPending(options);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const element = pending ? <ConfirmDialog {...pending} onConfirm={() => settle(true)} onCancel={() => settle(false)} /> : null;
  return { confirm, element };
}
