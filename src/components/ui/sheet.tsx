import type { ReactNode } from 'react';
import { Dialog as ArkDialog } from '@ark-ui/react/dialog';
import { Portal } from '@ark-ui/react/portal';
import { sva } from '#styled-system/css';
import { useDir } from './use-dir.ts';

/** A modal side sheet's parts (one slot recipe); `side` is the inline edge it comes from. */
export const sheetRecipe = sva({
  slots: ['backdrop', 'positioner', 'content'],
  base: {
    backdrop: { position: 'fixed', inset: 0, bg: 'bg.overlay', zIndex: 'overlay' },
    positioner: { position: 'fixed', insetBlock: 0, zIndex: 'modal', display: 'flex', maxWidth: '100vw' },
    content: {
      display: 'flex',
      flexDirection: 'column',
      height: '100dvh',
      maxWidth: '100vw',
      overflowY: 'auto',
      bg: 'bg.surface',
      color: 'fg.default',
      boxShadow: 'xl',
      outline: 'none',
    },
  },
  variants: {
    side: {
      start: { positioner: { insetInlineStart: 0 } },
      end: { positioner: { insetInlineEnd: 0 } },
    },
  },
  defaultVariants: { side: 'end' },
});

export interface SheetProps {
  /** The content's id (tests and `aria-controls` of the opener point at it). */
  id: string;
  side: 'start' | 'end';
  /** Name it by a visible title (`SheetTitle` inside) or, without one, by this label. */
  label?: string;
  width: string;
  onClose: () => void;
  testId?: string;
  /** Extra attributes on the content (data-variant …). */
  contentProps?: Record<`data-${string}`, string>;
  children: ReactNode;
}

/**
 * A modal side sheet on Ark UI's Dialog (the settings panel, the phone navigation drawer): focus
 * is trapped inside and returns to the opener, the page behind is hidden from assistive
 * technology and does not scroll, Escape or a click outside closes it. Mount to open, unmount
 * to close.
 */
export function Sheet({ id, side, label, width, onClose, testId, contentProps, children }: SheetProps) {
  const dir = useDir();
  const classes = sheetRecipe({ side });
  return (
    <ArkDialog.Root
      open
      lazyMount
      unmountOnExit
      ids={{ content: id }}
      onFocusOutside={(event) => event.preventDefault()}
      onOpenChange={(details) => {
        if (!details.open) onClose();
      }}
    >
      <Portal>
        <ArkDialog.Backdrop className={classes.backdrop} />
        <ArkDialog.Positioner className={classes.positioner} dir={dir}>
          <ArkDialog.Content className={classes.content} style={{ width }} aria-label={label} data-testid={testId} {...contentProps}>
            {children}
          </ArkDialog.Content>
        </ArkDialog.Positioner>
      </Portal>
    </ArkDialog.Root>
  );
}

export const SheetTitle = ArkDialog.Title;
export const SheetDescription = ArkDialog.Description;
export const SheetClose = ArkDialog.CloseTrigger;
