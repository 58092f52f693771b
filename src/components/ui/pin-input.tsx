import { forwardRef, useId, useImperativeHandle, type ReactNode } from 'react';
import { PinInput as ArkPinInput, usePinInput } from '@ark-ui/react/pin-input';
import { useTranslation } from 'react-i18next';
import { sva } from '#styled-system/css';
import { controlStyle } from './field.tsx';

export const pinInputRecipe = sva({
  slots: ['root', 'label', 'control', 'input', 'hint', 'error'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1' },
    label: { fontSize: 'sm', fontWeight: 'semibold', color: 'fg.default' },
    // Digits read left to right in every language, also in a right-to-left layout.
    control: { display: 'flex', gap: '2', direction: 'ltr', justifyContent: 'flex-start' },
    input: {
      width: '11',
      height: '12',
      px: '0',
      textAlign: 'center',
      fontSize: 'lg',
      fontVariantNumeric: 'tabular-nums',
    },
    hint: { fontSize: 'xs', color: 'fg.muted' },
    error: { fontSize: 'xs', color: 'error.main', fontWeight: 'medium' },
  },
});

export interface PinInputHandle {
  /** Empties every box and puts the focus in the first (after a wrong code or a resend). */
  reset(): void;
}

export interface PinInputProps {
  label: string;
  length?: number;
  value: string;
  onChange: (value: string) => void;
  /** Called once every box holds a digit, typed or pasted. */
  onComplete?: (value: string) => void;
  hint?: ReactNode;
  error?: string | null;
  autoFocus?: boolean;
  disabled?: boolean;
  name?: string;
}

/**
 * A one-time code in separate digit boxes (Ark UI PinInput): typing moves to the next box,
 * Backspace to the previous, a pasted or autofilled code fills them all (`autocomplete=
 * one-time-code`). Each box is named "Code, digit 2 of 6" for screen readers.
 */
export const PinInput = forwardRef<PinInputHandle, PinInputProps>(function PinInput(
  { label, length = 6, value, onChange, onComplete, hint, error, autoFocus, disabled, name },
  ref,
) {
  const { t } = useTranslation('ui');
  const id = useId();
  const classes = pinInputRecipe();
  const digits = Array.from({ length }, (_, index) => value[index] ?? '');
  const pin = usePinInput({
    id,
    count: length,
    otp: true,
    type: 'numeric',
    name,
    autoFocus,
    disabled,
    placeholder: '',
    invalid: !!error,
    value: digits,
    onValueChange: (details) => onChange(details.valueAsString),
    onValueComplete: (details) => onComplete?.(details.valueAsString),
    translations: { inputLabel: (index, count) => t('pinDigit', { label, index: index + 1, count }) },
  });

  useImperativeHandle(ref, () => ({
    reset() {
      pin.clearValue();
      onChange('');
      pin.focus();
    },
  }));

  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <ArkPinInput.RootProvider value={pin} className={classes.root}>
      <ArkPinInput.Label className={classes.label}>{label}</ArkPinInput.Label>
      <ArkPinInput.Control className={classes.control}>
        {digits.map((_, index) => (
          <ArkPinInput.Input key={index} index={index} className={`${controlStyle} ${classes.input}`} aria-describedby={describedBy} />
        ))}
      </ArkPinInput.Control>
      <ArkPinInput.HiddenInput />
      {hint ? (
        <p id={hintId} className={classes.hint}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className={classes.error}>
          {error}
        </p>
      ) : null}
    </ArkPinInput.RootProvider>
  );
});
