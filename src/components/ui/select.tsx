import { useId, useMemo, type ReactNode } from 'react';
import { createListCollection, Select as ArkSelect } from '@ark-ui/react/select';
import { Portal } from '@ark-ui/react/portal';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { controlStyle } from './field.tsx';
import { CheckMark } from './check-mark.tsx';
import { selectRecipe } from './select-recipe.ts';
import { useDir } from './use-dir.ts';

export interface SelectOption {
  value: string;
  label: string;
  disabled?: boolean;
}

/** Ark keeps values as non-empty strings; the "nothing chosen" row (the placeholder) has this one. */
const NONE = '\u2400none';

export { selectRecipe };

export interface SelectFieldProps {
  label: ReactNode;
  value: string;
  onValueChange: (value: string) => void;
  options: readonly SelectOption[];
  /** A first row meaning "none" (value ''), shown when nothing is chosen. */
  placeholder?: string;
  hint?: ReactNode;
  error?: string | string[] | null;
  required?: boolean;
  disabled?: boolean;
  name?: string;
  className?: string;
  testId?: string;
  layout?: 'stacked' | 'inline';
}

/**
 * One choice from a list (Ark UI Select): a button with the combobox role that opens a listbox.
 * Arrow keys, Home/End and typing the first letters move through the options; Enter or Space
 * chooses; Escape closes. A hidden native select carries the value in forms.
 */
export function SelectField({
  label,
  value,
  onValueChange,
  options,
  placeholder,
  hint,
  error,
  required,
  disabled,
  name,
  className,
  testId,
  layout,
}: SelectFieldProps) {
  const { t } = useTranslation('ui');
  const dir = useDir();
  const id = useId();
  const classes = selectRecipe({ layout });
  const items = useMemo(() => (placeholder !== undefined ? [{ value: NONE, label: placeholder }, ...options] : [...options]), [options, placeholder]);
  const collection = useMemo(
    () => createListCollection({ items, itemToString: (item) => item.label, itemToValue: (item) => item.value, isItemDisabled: (item) => !!item.disabled }),
    [items],
  );
  const errors = error ? (Array.isArray(error) ? error : [error]) : [];
  const describedBy = [hint ? `${id}-hint` : null, errors.length ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  const selected = value === '' ? (placeholder !== undefined ? [NONE] : []) : [value];

  return (
    <ArkSelect.Root
      className={[classes.root, className].filter(Boolean).join(' ')}
      collection={collection}
      value={selected}
      onValueChange={(details) => {
        const next = details.value[0];
        onValueChange(next === undefined || next === NONE ? '' : next);
      }}
      positioning={{ sameWidth: true }}
      disabled={disabled}
      invalid={errors.length > 0}
      required={required}
      name={name}
      dir={dir}
      lazyMount
      unmountOnExit
      data-testid={testId}
    >
      <ArkSelect.Label className={classes.label}>
        {label}
        {required ? (
          <>
            <span className={css({ color: 'error.main', ms: '1' })} aria-hidden="true">
              *
            </span>
            <span className={css({ srOnly: true })}>{t('required')}</span>
          </>
        ) : null}
      </ArkSelect.Label>
      <ArkSelect.Control>
        <ArkSelect.Trigger className={[controlStyle, classes.trigger].join(' ')} aria-describedby={describedBy}>
          <ArkSelect.ValueText placeholder={placeholder ?? t('choose')} />
          <ArkSelect.Indicator className={classes.indicator}>
            <svg width="16" height="16" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true" focusable="false">
              <path d="M7 10l5 5 5-5z" />
            </svg>
          </ArkSelect.Indicator>
        </ArkSelect.Trigger>
      </ArkSelect.Control>
      {hint ? (
        <p id={`${id}-hint`} className={classes.hint}>
          {hint}
        </p>
      ) : null}
      {errors.length ? (
        <p id={`${id}-error`} className={classes.error}>
          {errors.join(' ')}
        </p>
      ) : null}
      <Portal>
        <ArkSelect.Positioner className={classes.positioner}>
          <ArkSelect.Content className={classes.content}>
            {items.map((item) => (
              <ArkSelect.Item key={item.value} item={item} className={classes.item}>
                <ArkSelect.ItemText>{item.label}</ArkSelect.ItemText>
                <ArkSelect.ItemIndicator className={classes.itemIndicator}>
                  <CheckMark />
                </ArkSelect.ItemIndicator>
              </ArkSelect.Item>
            ))}
          </ArkSelect.Content>
        </ArkSelect.Positioner>
      </Portal>
      <ArkSelect.HiddenSelect />
    </ArkSelect.Root>
  );
}
