import { useEffect, useId, useRef, useState } from 'react';
import { css } from '#styled-system/css';
import { Button } from '#src/components/ui/button.tsx';

export interface RowAction {
  id: string;
  label: string;
  onSelect: () => void;
}

const menu = css({
  position: 'absolute',
  insetInlineEnd: 0,
  top: 'calc(100% + 4px)',
  minWidth: '13rem',
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'md',
  boxShadow: 'lg',
  py: '1',
  zIndex: 'dropdown',
  display: 'flex',
  flexDirection: 'column',
});
const item = css({
  textAlign: 'start',
  px: '3',
  py: '2',
  fontSize: 'sm',
  cursor: 'pointer',
  _hover: { bg: 'bg.hover' },
  _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '-2px' },
});

/**
 * A row's actions behind one button: the menu opens with focus on its first item, arrow keys
 * move, Escape closes and gives focus back to the button.
 */
export function RowActions({ label, actions, testId }: { label: string; actions: RowAction[]; testId?: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    box.current?.querySelector<HTMLButtonElement>('[role="menuitem"]')?.focus();
    const close = (event: MouseEvent) => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  if (actions.length === 0) return null;

  const onKeyDown = (event: React.KeyboardEvent<HTMLDivElement>) => {
    const items = [...(box.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
    const index = items.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      trigger.current?.focus();
    } else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = (index + (event.key === 'ArrowDown' ? 1 : -1) + items.length) % items.length;
      items[next]?.focus();
    }
  };

  return (
    <div ref={box} className={css({ position: 'relative', display: 'inline-block' })} onKeyDown={open ? onKeyDown : undefined} data-testid={testId}>
      <Button ref={trigger} size="sm" variant="outline" aria-haspopup="menu" aria-expanded={open} aria-controls={open ? id : undefined} onClick={() => setOpen((o) => !o)}>
        {label}
      </Button>
      {open ? (
        <div id={id} role="menu" aria-label={label} className={menu}>
          {actions.map((action) => (
            <button
              key={action.id}
              type="button"
              role="menuitem"
              className={item}
              data-action={action.id}
              onClick={() => {
                setOpen(false);
                action.onSelect();
              }}
            >
              {action.label}
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
