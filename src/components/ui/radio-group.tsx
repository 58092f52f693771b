import type { CSSProperties, ReactNode } from 'react';
import { RadioGroup as ArkRadioGroup } from '@ark-ui/react/radio-group';
import { css, sva } from '#styled-system/css';
import { CheckMark } from './check-mark.tsx';
import { useDir } from './use-dir.ts';

export const choiceGroupRecipe = sva({
  slots: ['root', 'label', 'items', 'item', 'itemText', 'mark'],
  base: {
    root: { display: 'flex', flexDirection: 'column', minWidth: 0 },
    label: { fontSize: 'sm', fontWeight: 'semibold', mb: '2' },
    items: { display: 'grid', gap: '2' },
    item: {
      position: 'relative',
      display: 'flex',
      alignItems: 'center',
      gap: '2',
      minHeight: '11',
      px: '3',
      py: '2',
      borderWidth: '1px',
      borderColor: 'border.strong',
      borderRadius: 'md',
      cursor: 'pointer',
      fontSize: 'sm',
      bg: 'bg.surface',
      _hover: { bg: 'bg.hover' },
      _checked: {
        borderColor: 'primary.main',
        bg: 'primary.lighter',
        color: 'primary.dark',
        fontWeight: 'semibold',
        boxShadow: 'inset 0 0 0 1px token(colors.primary.main)',
      },
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
    },
    itemText: { minWidth: 0, overflowWrap: 'anywhere' },
    mark: { flexShrink: 0, marginInlineStart: 'auto', display: 'none', '[data-state=checked] > &': { display: 'block' } },
  },
});

export { CheckMark } from './check-mark.tsx';

export interface ChoiceOption<T extends string> {
  value: T;
  label: ReactNode;
  /** Accessible name when `label` is not plain text. */
  ariaLabel?: string;
  lang?: string;
  /** Drawn before the label; it shows the selection mark itself (no trailing check). */
  preview?: (checked: boolean) => ReactNode;
  style?: CSSProperties;
  testId?: string;
}

/**
 * One choice among a few, as cards (Ark UI RadioGroup): arrow keys move and choose in the
 * reading direction, the native radios underneath keep forms and screen readers right.
 */
export function ChoiceGroup<T extends string>({
  title,
  name,
  value,
  options,
  columns = 2,
  onChange,
}: {
  title: string;
  name: string;
  value: T;
  options: ChoiceOption<T>[];
  columns?: number;
  onChange: (value: T) => void;
}) {
  const dir = useDir();
  const classes = choiceGroupRecipe();
  return (
    <ArkRadioGroup.Root className={classes.root} name={name} value={value} onValueChange={(details) => details.value && onChange(details.value as T)} dir={dir}>
      <ArkRadioGroup.Label className={classes.label}>{title}</ArkRadioGroup.Label>
      <div className={classes.items} style={{ gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))` }}>
        {options.map((option) => (
          <ArkRadioGroup.Item
            key={option.value}
            value={option.value}
            className={classes.item}
            lang={option.lang}
            style={option.style}
            data-testid={option.testId}
          >
            {option.preview?.(option.value === value)}
            <ArkRadioGroup.ItemText className={classes.itemText}>
              {/* A label that is not plain text is named by `ariaLabel`; the radio is labelled by this text. */}
              {option.ariaLabel ? (
                <>
                  <span aria-hidden="true">{option.label}</span>
                  <span className={css({ srOnly: true })}>{option.ariaLabel}</span>
                </>
              ) : (
                option.label
              )}
            </ArkRadioGroup.ItemText>
            {option.preview ? null : <CheckMark className={classes.mark} />}
            <ArkRadioGroup.ItemHiddenInput />
          </ArkRadioGroup.Item>
        ))}
      </div>
    </ArkRadioGroup.Root>
  );
}
