import { forwardRef, useId, type ComponentProps, type ReactElement, type ReactNode } from 'react';
import { Menu as ArkMenu } from '@ark-ui/react/menu';
import { Portal } from '@ark-ui/react/portal';
import { cx, sva } from '#styled-system/css';
import { Button } from './button.tsx';
import { Icon } from './icons.tsx';
import { Tooltip } from './tooltip.tsx';

/**
 * The menu's parts (Ark UI Menu). The positioner is portalled to <body> with the `dropdown`
 * layer, so a menu opened in the last table row is neither clipped by the table's scroll box
 * nor painted under the rows and the pagination (issue 13).
 */
export const menuRecipe = sva({
  slots: ['positioner', 'content', 'item', 'separator'],
  base: {
    // Ark's positioner takes its z-index from the content's (`--z-index`), so both carry it.
    positioner: { zIndex: 'dropdown' },
    content: {
      position: 'relative',
      zIndex: 'dropdown',
      minWidth: '12rem',
      bg: 'bg.surface',
      color: 'fg.default',
      borderWidth: '1px',
      borderColor: 'border',
      borderRadius: 'md',
      boxShadow: 'lg',
      py: '1',
      display: 'flex',
      flexDirection: 'column',
      outline: 'none',
      _hidden: { display: 'none' },
    },
    item: {
      display: 'flex',
      alignItems: 'center',
      gap: '2',
      textAlign: 'start',
      px: '3',
      py: '2',
      fontSize: 'sm',
      color: 'fg.default',
      textDecoration: 'none',
      cursor: 'pointer',
      outline: 'none',
      '&[data-highlighted]': { bg: 'bg.hover' },
      '&[data-highlighted]:focus-visible, &[data-highlighted][data-focus-visible]': { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '-2px' },
      _disabled: { color: 'fg.disabled', cursor: 'not-allowed' },
      '&[data-tone=danger]': { color: 'error.main' },
    },
    separator: { my: '1', borderTopWidth: '1px', borderColor: 'border' },
  },
});

const classes = menuRecipe();

export const MenuRoot = ArkMenu.Root;
export const MenuTrigger = ArkMenu.Trigger;

/** The floating list: portalled, positioned and layered above the page. */
export const MenuContent = forwardRef<HTMLDivElement, ComponentProps<typeof ArkMenu.Content>>(function MenuContent({ className, ...rest }, ref) {
  // Portalled into the page's main landmark (body when there is none) so the list escapes the
  // table's clipping and still belongs to a landmark (axe: region).
  const container = { current: typeof document === 'undefined' ? null : (document.getElementById('main-content') ?? document.body) };
  return (
    <Portal container={container}>
      <ArkMenu.Positioner className={classes.positioner}>
        <ArkMenu.Content ref={ref} className={cx(classes.content, className)} {...rest} />
      </ArkMenu.Positioner>
    </Portal>
  );
});

export const MenuItem = forwardRef<HTMLDivElement, ComponentProps<typeof ArkMenu.Item> & { tone?: 'danger' }>(function MenuItem(
  { className, tone, ...rest },
  ref,
) {
  return <ArkMenu.Item ref={ref} className={cx(classes.item, className)} data-tone={tone} {...rest} />;
});

export function MenuSeparator() {
  return <ArkMenu.Separator className={classes.separator} />;
}

export interface MenuAction {
  id: string;
  label: string;
  onSelect: () => void;
  /** Destructive actions are shown in the error colour (and ask for confirmation themselves). */
  tone?: 'danger';
  disabled?: boolean;
}

/**
 * A trigger (the caller's button, which becomes the menu trigger) and its list of actions;
 * `tooltip` shows words for an icon-only trigger.
 */
export function ActionMenu({
  trigger,
  tooltip,
  label,
  actions,
  testId,
}: {
  trigger: ReactElement;
  tooltip?: ReactNode;
  label: string;
  actions: MenuAction[];
  testId?: string;
}) {
  const triggerId = useId();
  const menuTrigger = <MenuTrigger asChild>{trigger}</MenuTrigger>;
  return (
    <MenuRoot lazyMount unmountOnExit positioning={{ placement: 'bottom-end' }} ids={{ trigger: triggerId }}>
      {tooltip ? (
        <Tooltip content={tooltip} triggerId={triggerId}>
          {menuTrigger}
        </Tooltip>
      ) : (
        menuTrigger
      )}
      <MenuContent aria-label={label} data-testid={testId ? `${testId}-menu` : undefined}>
        {actions.map((action) => (
          <MenuItem
            key={action.id}
            value={action.id}
            data-action={action.id}
            tone={action.tone}
            disabled={action.disabled}
            // The menu gives focus back to its trigger as it closes; an action that opens a
            // dialog runs after that, so the dialog's focus trap starts from the trigger and
            // hands focus back to it when the dialog closes.
            onSelect={() => setTimeout(action.onSelect, 0)}
          >
            {action.label}
          </MenuItem>
        ))}
      </MenuContent>
    </MenuRoot>
  );
}

/**
 * A table row's actions behind one icon button. The button's accessible name says whose
 * actions they are ("Actions for nisha"); sighted users get the same words in a tooltip.
 */
export function RowMenu({ label, actions, testId }: { label: string; actions: MenuAction[]; testId?: string }) {
  if (actions.length === 0) return null;
  return (
    <span data-testid={testId}>
      <ActionMenu
        label={label}
        actions={actions}
        tooltip={label}
        trigger={
          <Button size="icon" variant="ghost" aria-label={label}>
            <Icon name="more" />
          </Button>
        }
      />
    </span>
  );
}
