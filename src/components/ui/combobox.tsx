import { useId, useMemo, type ReactNode } from 'react';
import { Combobox as ArkCombobox, createListCollection } from '@ark-ui/react/combobox';
import { Portal } from '@ark-ui/react/portal';
import { useTranslation } from 'react-i18next';
import { controlStyle } from './field.tsx';
import { CheckMark } from './check-mark.tsx';
import { selectRecipe } from './select.tsx';
import { useDir } from './use-dir.ts';

export interface ComboboxItem {
  value: string;
  label: string;
  /** Other words that find it (a language's own name, its code). */
  keywords?: string[];
}

/** Items whose label or keywords contain the typed text, ignoring case and accents. */
export function filterItems(items: readonly ComboboxItem[], text: string, locale?: string): ComboboxItem[] {
  const fold = (value: string) => value.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase(locale);
  const wanted = fold(text.trim());
  if (!wanted) return [...items];
  return items.filter((item) => [item.label, ...(item.keywords ?? [])].some((word) => fold(word).includes(wanted)));
}

export interface ComboboxFieldProps {
  label: ReactNode;
  items: readonly ComboboxItem[];
  inputValue: string;
  onInputValueChange: (text: string) => void;
  /** The chosen item's value, or null while the text is the user's own. */
  value: string | null;
  onValueChange: (value: string | null) => void;
  hint?: ReactNode;
  error?: string | string[] | null;
  className?: string;
  maxLength?: number;
}

/**
 * Type to narrow a list, or choose from it (Ark UI Combobox): the input has the combobox role,
 * arrow keys move through the matches, Enter chooses, Escape closes. Text that matches nothing
 * stays the user's own (allowCustomValue); the caller decides what it means.
 */
export function ComboboxField({ label, items, inputValue, onInputValueChange, value, onValueChange, hint, error, className, maxLength }: ComboboxFieldProps) {
  const { i18n } = useTranslation('ui');
  const dir = useDir();
  const id = useId();
  const classes = selectRecipe();
  const matches = useMemo(() => filterItems(items, value ? '' : inputValue, i18n.language), [items, inputValue, value, i18n.language]);
  const collection = useMemo(() => createListCollection({ items: matches, itemToString: (item) => item.label, itemToValue: (item) => item.value }), [matches]);
  const errors = error ? (Array.isArray(error) ? error : [error]) : [];
  const describedBy = [hint ? `${id}-hint` : null, errors.length ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;

  return (
    <ArkCombobox.Root
      className={[classes.root, className].filter(Boolean).join(' ')}
      collection={collection}
      inputValue={inputValue}
      value={value ? [value] : []}
      allowCustomValue
      openOnClick
      dir={dir}
      invalid={errors.length > 0}
      lazyMount
      unmountOnExit
      positioning={{ sameWidth: true }}
      onInputValueChange={(details) => {
        onInputValueChange(details.inputValue);
        // Typing makes the text the user's own again; choosing an item sets its label as the text.
        if (details.reason === 'input-change' || details.reason === 'clear-trigger') onValueChange(null);
      }}
      onValueChange={(details) => onValueChange(details.value[0] ?? null)}
    >
      <ArkCombobox.Label className={classes.label}>{label}</ArkCombobox.Label>
      <ArkCombobox.Control>
        <ArkCombobox.Input className={controlStyle} aria-describedby={describedBy} maxLength={maxLength} autoComplete="off" />
      </ArkCombobox.Control>
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
        <ArkCombobox.Positioner className={classes.positioner}>
          {matches.length ? (
            <ArkCombobox.Content className={classes.content}>
              {matches.map((item) => (
                <ArkCombobox.Item key={item.value} item={item} className={classes.item}>
                  <ArkCombobox.ItemText>{item.label}</ArkCombobox.ItemText>
                  <ArkCombobox.ItemIndicator className={classes.itemIndicator}>
                    <CheckMark />
                  </ArkCombobox.ItemIndicator>
                </ArkCombobox.Item>
              ))}
            </ArkCombobox.Content>
          ) : null}
        </ArkCombobox.Positioner>
      </Portal>
    </ArkCombobox.Root>
  );
}
