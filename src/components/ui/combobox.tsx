import { css } from '#styled-system/css';
import { useId, useMemo, type ReactNode } from 'react';
import { Combobox as ArkCombobox, createListCollection } from '@ark-ui/react/combobox';
import { Portal } from '@ark-ui/react/portal';
import { useTranslation } from 'react-i18next';
import { controlStyle } from './field.tsx';
import { CheckMark } from './check-mark.tsx';
import { selectRecipe } from './select-recipe.ts';
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
  /** `typed`: the user typed or cleared the text (not: choosing an item, or the field reverting it). */
  onInputValueChange: (text: string, typed: boolean) => void;
  /** The chosen item's value, or null while the text is the user's own. */
  value: string | null;
  onValueChange: (value: string | null) => void;
  hint?: ReactNode;
  error?: string | string[] | null;
  className?: string;
  maxLength?: number;
  /**
   * `'local'` (default): the list narrows to the items matching the typed text. `'server'`: the
   * caller's `items` already are the matches (a server search), shown as they come.
   */
  filtering?: 'local' | 'server';
  /** Whether text that matches no item may stay (default true); otherwise only an item counts. */
  allowCustomValue?: boolean;
  /** A search's state under the field, announced politely: "Searching…", "No user matches.", a failure. */
  status?: ReactNode;
  /** Marks the status as a failure (announced as an alert, in the error colour). */
  statusIsError?: boolean;
  placeholder?: string;
  autoFocus?: boolean;
  testId?: string;
}

/**
 * Type to narrow a list, or choose from it (Ark UI Combobox): the input has the combobox role,
 * arrow keys move through the matches, Enter chooses, Escape closes. Text that matches nothing
 * stays the user's own (allowCustomValue); the caller decides what it means.
 */
export function ComboboxField({
  label,
  items,
  inputValue,
  onInputValueChange,
  value,
  onValueChange,
  hint,
  error,
  className,
  maxLength,
  filtering = 'local',
  allowCustomValue = true,
  status,
  statusIsError = false,
  placeholder,
  autoFocus,
  testId,
}: ComboboxFieldProps) {
  const { i18n } = useTranslation('ui');
  const dir = useDir();
  const id = useId();
  const classes = selectRecipe();
  const matches = useMemo(
    () => (filtering === 'server' ? [...items] : filterItems(items, value ? '' : inputValue, i18n.language)),
    [filtering, items, inputValue, value, i18n.language],
  );
  const collection = useMemo(() => createListCollection({ items: matches, itemToString: (item) => item.label, itemToValue: (item) => item.value }), [matches]);
  const errors = error ? (Array.isArray(error) ? error : [error]) : [];
  const describedBy = [hint ? `${id}-hint` : null, status ? `${id}-status` : null, errors.length ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;

  return (
    <ArkCombobox.Root
      className={[classes.root, className].filter(Boolean).join(' ')}
      collection={collection}
      inputValue={inputValue}
      value={value ? [value] : []}
      allowCustomValue={allowCustomValue}
      openOnClick
      // The machine focuses the input once it runs. The input's own autoFocus would focus it during
      // React's commit, before the machine listens: the focus is lost to it, and typing into the
      // focused field then opens nothing and reports nothing (seen in the grant dialog).
      autoFocus={autoFocus}
      dir={dir}
      invalid={errors.length > 0}
      lazyMount
      unmountOnExit
      positioning={{ sameWidth: true }}
      onInputValueChange={(details) => {
        // Typing makes the text the user's own again; choosing an item sets its label as the text.
        const typed = details.reason === 'input-change' || details.reason === 'clear-trigger';
        onInputValueChange(details.inputValue, typed);
        if (typed) onValueChange(null);
      }}
      onValueChange={(details) => onValueChange(details.value[0] ?? null)}
    >
      <ArkCombobox.Label className={classes.label}>{label}</ArkCombobox.Label>
      <ArkCombobox.Control>
        <ArkCombobox.Input
          className={controlStyle}
          aria-describedby={describedBy}
          maxLength={maxLength}
          autoComplete="off"
          placeholder={placeholder}
          data-testid={testId}
        />
      </ArkCombobox.Control>
      {hint ? (
        <p id={`${id}-hint`} className={classes.hint}>
          {hint}
        </p>
      ) : null}
      {/* Always present, so a screen reader hears the search's state change. */}
      <p id={`${id}-status`} role={statusIsError ? 'alert' : 'status'} className={statusIsError ? classes.error : classes.hint} hidden={!status}>
        {status}
      </p>
      {errors.length ? (
        <p id={`${id}-error`} className={classes.error}>
          {errors.join(' ')}
        </p>
      ) : null}
      <Portal>
        <ArkCombobox.Positioner className={classes.positioner}>
          {/*
            The content stays mounted while open, empty or not: the layer stack registers it when the
            list opens, and one rendered only once a server search answers never receives pointer
            events inside a modal dialog (the list shows, but a click lands on the dialog below).
          */}
          <ArkCombobox.Content className={matches.length ? classes.content : `${classes.content} ${css({ display: 'none' })}`}>
            {matches.map((item) => (
              <ArkCombobox.Item key={item.value} item={item} className={classes.item}>
                <ArkCombobox.ItemText>{item.label}</ArkCombobox.ItemText>
                <ArkCombobox.ItemIndicator className={classes.itemIndicator}>
                  <CheckMark />
                </ArkCombobox.ItemIndicator>
              </ArkCombobox.Item>
            ))}
          </ArkCombobox.Content>
        </ArkCombobox.Positioner>
      </Portal>
    </ArkCombobox.Root>
  );
}
