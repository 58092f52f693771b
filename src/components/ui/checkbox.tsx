import type { ReactNode } from 'react';
import { Checkbox as ArkCheckbox } from '@ark-ui/react/checkbox';
import { sva } from '#styled-system/css';

export const checkboxRecipe = sva({
  slots: ['root', 'control', 'indicator', 'label'],
  base: {
    root: { display: 'flex', alignItems: 'flex-start', gap: '2', fontSize: 'sm', cursor: 'pointer', _disabled: { cursor: 'not-allowed', opacity: 0.6 } },
    control: {
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      flexShrink: 0,
      width: '4.5',
      height: '4.5',
      mt: '0.5',
      borderWidth: '1.5px',
      borderColor: 'border.strong',
      borderRadius: 'sm',
      bg: 'bg.surface',
      color: 'primary.contrast',
      _checked: { bg: 'primary.main', borderColor: 'primary.main' },
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
    },
    indicator: { display: 'inline-flex' },
    label: { minWidth: 0 },
  },
});

/** A checkbox (Ark UI Checkbox) with its label beside it; a native checkbox underneath. */
export function Checkbox({
  checked,
  onChange,
  children,
  disabled,
  testId,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  children: ReactNode;
  disabled?: boolean;
  testId?: string;
}) {
  const classes = checkboxRecipe();
  return (
    <ArkCheckbox.Root
      className={classes.root}
      checked={checked}
      disabled={disabled}
      onCheckedChange={(details) => onChange(details.checked === true)}
      data-testid={testId}
    >
      <ArkCheckbox.Control className={classes.control}>
        <ArkCheckbox.Indicator className={classes.indicator}>
          <svg width={12} height={12} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
            <path d="M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z" />
          </svg>
        </ArkCheckbox.Indicator>
      </ArkCheckbox.Control>
      <ArkCheckbox.Label className={classes.label}>{children}</ArkCheckbox.Label>
      <ArkCheckbox.HiddenInput />
    </ArkCheckbox.Root>
  );
}
