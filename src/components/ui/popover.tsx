import { useId, type ReactNode } from 'react';
import { Popover as ArkPopover } from '@ark-ui/react/popover';
import { Portal } from '@ark-ui/react/portal';
import { sva } from '#styled-system/css';
import { Icon } from './icons.tsx';

export const popoverRecipe = sva({
  slots: ['trigger', 'positioner', 'content', 'title', 'body', 'close'],
  base: {
    trigger: {
      display: 'inline-flex',
      alignItems: 'center',
      gap: '1',
      px: '1.5',
      py: '0.5',
      borderRadius: 'sm',
      fontSize: 'xs',
      fontWeight: 'semibold',
      color: 'primary.dark',
      bg: 'primary.lighter',
      cursor: 'pointer',
      _hover: { textDecoration: 'underline' },
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '1px' },
    },
    // Ark's positioner takes its z-index from the content's (`--z-index`), so both carry it.
    positioner: { zIndex: 'popover' },
    content: {
      position: 'relative',
      zIndex: 'popover',
      minWidth: '12rem',
      maxWidth: '20rem',
      p: '3',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border',
      bg: 'bg.surface',
      color: 'fg.default',
      boxShadow: 'lg',
      outline: 'none',
      fontSize: 'sm',
    },
    title: { display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '2', fontWeight: 'semibold', mb: '2' },
    body: { display: 'flex', flexDirection: 'column', gap: '1' },
    close: { p: '1', borderRadius: 'md', cursor: 'pointer', color: 'fg.muted', _hover: { bg: 'bg.hover' } },
  },
});

const classes = popoverRecipe();

/**
 * More about something, on demand (Ark UI Popover): a button opens a small non-modal panel next
 * to it; Escape, a click outside or the close button shut it and focus goes back to the button.
 */
export function InfoPopover({
  trigger,
  triggerLabel,
  title,
  closeLabel,
  children,
  testId,
}: {
  trigger: ReactNode;
  /** The button's accessible name when its visible text is short ("+3"). */
  triggerLabel: string;
  title: ReactNode;
  closeLabel: string;
  children: ReactNode;
  testId?: string;
}) {
  // Named by its title from the first frame (Ark links the title only once it has seen it rendered).
  const titleId = useId();
  return (
    <ArkPopover.Root lazyMount unmountOnExit portalled positioning={{ placement: 'bottom-start' }} ids={{ title: titleId }}>
      <ArkPopover.Trigger className={classes.trigger} aria-label={triggerLabel} data-testid={testId}>
        {trigger}
      </ArkPopover.Trigger>
      <Portal>
        <ArkPopover.Positioner className={classes.positioner}>
          <ArkPopover.Content className={classes.content} aria-labelledby={titleId}>
            <div className={classes.title}>
              <ArkPopover.Title>{title}</ArkPopover.Title>
              <ArkPopover.CloseTrigger className={classes.close} aria-label={closeLabel}>
                <Icon name="close" size={16} />
              </ArkPopover.CloseTrigger>
            </div>
            <div className={classes.body}>{children}</div>
          </ArkPopover.Content>
        </ArkPopover.Positioner>
      </Portal>
    </ArkPopover.Root>
  );
}
