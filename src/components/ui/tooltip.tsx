import type { ReactElement, ReactNode } from 'react';
import { Portal } from '@ark-ui/react/portal';
import { Tooltip as ArkTooltip } from '@ark-ui/react/tooltip';
import { sva } from '#styled-system/css';

export const tooltipRecipe = sva({
  slots: ['positioner', 'content'],
  base: {
    // Ark's positioner takes its z-index from the content's (`--z-index`), so both carry it.
    positioner: { zIndex: 'tooltip' },
    content: {
      position: 'relative',
      zIndex: 'tooltip',
      px: '2',
      py: '1',
      borderRadius: 'sm',
      bg: 'fg.default',
      color: 'bg.surface',
      fontSize: 'xs',
      fontWeight: 'medium',
      maxWidth: '20rem',
      boxShadow: 'md',
    },
  },
});

const classes = tooltipRecipe();

/**
 * A short text for a control on hover and keyboard focus (Ark UI Tooltip). It repeats what
 * the control's accessible name says, for people who see only an icon; it is not a label.
 */
export function Tooltip({
  content,
  children,
  placement = 'top',
  triggerId,
}: {
  content: ReactNode;
  children: ReactElement;
  placement?: 'top' | 'bottom' | 'start' | 'end';
  /** When the trigger is another component's trigger too (a menu's), both must use one id. */
  triggerId?: string;
}) {
  const side = placement === 'start' ? 'left' : placement === 'end' ? 'right' : placement;
  return (
    <ArkTooltip.Root
      openDelay={300}
      closeDelay={100}
      lazyMount
      unmountOnExit
      positioning={{ placement: side }}
      ids={triggerId ? { trigger: triggerId } : undefined}
    >
      <ArkTooltip.Trigger asChild>{children}</ArkTooltip.Trigger>
      <Portal>
        <ArkTooltip.Positioner className={classes.positioner}>
          <ArkTooltip.Content className={classes.content}>{content}</ArkTooltip.Content>
        </ArkTooltip.Positioner>
      </Portal>
    </ArkTooltip.Root>
  );
}
