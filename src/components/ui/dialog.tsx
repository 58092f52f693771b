import { useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from '#styled-system/css';
import { Icon } from './icons.tsx';

const sizes = { sm: '28rem', md: '36rem', lg: '48rem' } as const;

const dialogStyle = css({
  m: 'auto',
  p: 0,
  border: 'none',
  borderRadius: 'lg',
  bg: 'bg.surface',
  color: 'fg.default',
  boxShadow: '2xl',
  width: 'calc(100vw - 2rem)',
  maxHeight: 'calc(100vh - 2rem)',
  '&::backdrop': { bg: 'bg.overlay' },
  '&[open]': { display: 'flex', flexDirection: 'column' },
});
const head = css({ display: 'flex', alignItems: 'flex-start', gap: '3', px: '5', pt: '4', pb: '2' });
const body = css({ px: '5', py: '2', overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: '4' });
const foot = css({ display: 'flex', justifyContent: 'flex-end', flexWrap: 'wrap', gap: '2', px: '5', py: '4', borderTopWidth: '1px', borderColor: 'border', mt: '2' });
const closeButton = css({ ms: 'auto', p: '1.5', borderRadius: 'md', cursor: 'pointer', color: 'fg.muted', _hover: { bg: 'bg.hover' } });

export interface DialogProps {
  title: ReactNode;
  description?: ReactNode;
  /** Called when the dialog closes itself: Escape, the close button, a click on the backdrop. */
  onClose: () => void;
  /** A form dialog: children and footer sit in one <form> and Enter submits. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  footer?: ReactNode;
  size?: keyof typeof sizes;
  /** While busy, Escape and the backdrop do not close it. */
  busy?: boolean;
  children?: ReactNode;
  testId?: string;
}

/**
 * A modal dialog on the native <dialog> (docs/decisions/0004): the browser keeps focus inside,
 * makes the page inert and handles Escape. Mount it to open it; unmount to close.
 */
export function Dialog({ title, description, onClose, onSubmit, footer, size = 'md', busy = false, children, testId }: DialogProps) {
  const { t } = useTranslation('ui');
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);

  const content = (
    <>
      <div className={body}>{children}</div>
      {footer ? <div className={foot}>{footer}</div> : null}
    </>
  );
  return (
    <dialog
      ref={ref}
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      aria-busy={busy || undefined}
      data-testid={testId}
      className={dialogStyle}
      style={{ maxWidth: sizes[size] }}
      onCancel={(event) => {
        event.preventDefault();
        if (!busy) onClose();
      }}
      onClick={(event) => {
        if (event.target === event.currentTarget && !busy) onClose();
      }}
    >
      <div className={head}>
        <div>
          <h2 id={titleId} className={css({ fontSize: 'lg', fontWeight: 'bold' })}>
            {title}
          </h2>
          {description ? (
            <p id={descriptionId} className={css({ fontSize: 'sm', color: 'fg.muted', mt: '1' })}>
              {description}
            </p>
          ) : null}
        </div>
        <button type="button" className={closeButton} aria-label={t('closeDialog')} onClick={() => !busy && onClose()} disabled={busy}>
          <Icon name="close" />
        </button>
      </div>
      {onSubmit ? (
        <form
          noValidate
          className={cx(css({ display: 'flex', flexDirection: 'column', minHeight: 0 }))}
          onSubmit={(event) => {
            event.preventDefault();
            onSubmit(event);
          }}
        >
          {content}
        </form>
      ) : (
        content
      )}
    </dialog>
  );
}
