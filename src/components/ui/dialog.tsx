import { useRef, type FormEvent, type ReactNode } from 'react';
import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { useTranslation } from 'react-i18next';
import { css, sva } from '#styled-system/css';
import { Icon } from './icons.tsx';

/** The dialog's parts, styled by one slot recipe (Ark marks each part with `data-part`). */
export const dialogRecipe = sva({
  slots: ['backdrop', 'positioner', 'content', 'header', 'title', 'description', 'body', 'footer', 'closeTrigger'],
  base: {
    backdrop: { position: 'fixed', inset: 0, bg: 'bg.overlay', zIndex: 'overlay' },
    positioner: {
      position: 'fixed',
      inset: 0,
      zIndex: 'modal',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
      p: '4',
    },
    content: {
      display: 'flex',
      flexDirection: 'column',
      width: '100%',
      maxHeight: 'calc(100dvh - 2rem)',
      borderRadius: 'lg',
      bg: 'bg.surface',
      color: 'fg.default',
      boxShadow: '2xl',
      outline: 'none',
    },
    header: { display: 'flex', alignItems: 'flex-start', gap: '3', px: '5', pt: '4', pb: '2' },
    title: { fontSize: 'lg', fontWeight: 'bold' },
    description: { fontSize: 'sm', color: 'fg.muted', mt: '1' },
    body: { px: '5', py: '2', overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: '4' },
    footer: {
      display: 'flex',
      justifyContent: 'flex-end',
      flexWrap: 'wrap',
      gap: '2',
      px: '5',
      py: '4',
      borderTopWidth: '1px',
      borderColor: 'border',
      mt: '2',
    },
    closeTrigger: {
      ms: 'auto',
      p: '1.5',
      borderRadius: 'md',
      cursor: 'pointer',
      color: 'fg.muted',
      _hover: { bg: 'bg.hover' },
      _disabled: { cursor: 'not-allowed', opacity: 0.6 },
    },
  },
  variants: {
    size: {
      sm: { content: { maxWidth: '28rem' } },
      md: { content: { maxWidth: '36rem' } },
      lg: { content: { maxWidth: '48rem' } },
    },
  },
  defaultVariants: { size: 'md' },
});

export interface DialogProps {
  title: ReactNode;
  description?: ReactNode;
  /** Called when the dialog closes itself: Escape, the close button, a click outside. */
  onClose: () => void;
  /** A form dialog: children and footer sit in one <form> and Enter submits. */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  footer?: ReactNode;
  size?: 'sm' | 'md' | 'lg';
  /** While busy, Escape and a click outside do not close it. */
  busy?: boolean;
  /** `alertdialog` for a question that needs an answer (the confirm dialog). */
  role?: 'dialog' | 'alertdialog';
  children?: ReactNode;
  testId?: string;
}

/**
 * A modal dialog on Ark UI's Dialog (issue 13): Ark traps focus, hides the page behind it from
 * assistive technology, locks its scroll and closes on Escape or a click outside. Mount it to
 * open it; unmount it to close (the screens keep "which dialog is open" in their own state).
 */
export function Dialog({ title, description, onClose, onSubmit, footer, size, busy = false, role = 'dialog', children, testId }: DialogProps) {
  const { t } = useTranslation('ui');
  const classes = dialogRecipe({ size });
  const contentRef = useRef<HTMLDivElement>(null);

  const content = (
    <>
      <div className={classes.body} data-part="body">
        {children}
      </div>
      {footer ? (
        <div className={classes.footer} data-part="footer">
          {footer}
        </div>
      ) : null}
    </>
  );
  return (
    <ArkDialog.Root
      open
      role={role}
      lazyMount
      unmountOnExit
      closeOnEscape={!busy}
      closeOnInteractOutside={!busy}
      // Focus leaving is not a way to close a modal dialog: a menu item that opens one hands
      // focus back to its trigger just after, which would close the dialog at once.
      onFocusOutside={(event) => event.preventDefault()}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
      // A field that asked for focus (autoFocus) keeps it, then one marked `data-autofocus`;
      // otherwise the first control of the body, not the close button, so typing starts where
      // the work is.
      initialFocusEl={() => {
        const root = contentRef.current;
        if (!root) return null;
        if (root.contains(document.activeElement) && document.activeElement !== root) return document.activeElement as HTMLElement;
        return (
          root.querySelector<HTMLElement>('[data-autofocus]') ??
          root.querySelector<HTMLElement>('[data-part="body"] :is(input, select, textarea, button, [tabindex="0"]):not(:disabled)')
        );
      }}
    >
      <Portal>
        <ArkDialog.Backdrop className={classes.backdrop} />
        <ArkDialog.Positioner className={classes.positioner}>
          <ArkDialog.Content ref={contentRef} className={classes.content} aria-busy={busy || undefined} data-testid={testId}>
            <div className={classes.header}>
              <div>
                <ArkDialog.Title className={classes.title}>{title}</ArkDialog.Title>
                {description ? <ArkDialog.Description className={classes.description}>{description}</ArkDialog.Description> : null}
              </div>
              <ArkDialog.CloseTrigger className={classes.closeTrigger} aria-label={t('closeDialog')} disabled={busy}>
                <Icon name="close" />
              </ArkDialog.CloseTrigger>
            </div>
            {onSubmit ? (
              <form
                noValidate
                data-part="form"
                className={css({ display: 'flex', flexDirection: 'column', minHeight: 0 })}
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
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}
