import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from '#styled-system/css';

const fieldBox = css({ display: 'flex', flexDirection: 'column', gap: '1', minWidth: 0 });
const labelText = css({ fontSize: 'sm', fontWeight: 'semibold', color: 'fg.default' });
const hintText = css({ fontSize: 'xs', color: 'fg.muted' });
const errorText = css({ fontSize: 'xs', color: 'error.main', fontWeight: 'medium' });

export const controlStyle = css({
  width: '100%',
  minHeight: '10',
  px: '3',
  py: '2',
  borderWidth: '1px',
  borderColor: 'border.strong',
  borderRadius: 'md',
  bg: 'bg.surface',
  color: 'fg.default',
  fontSize: 'sm',
  _placeholder: { color: 'fg.subtle' },
  _disabled: { bg: 'bg.muted', color: 'fg.disabled', cursor: 'not-allowed' },
  '&[aria-invalid=true]': { borderColor: 'error.main' },
  _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '1px' },
});

interface FieldFrameProps {
  label: ReactNode;
  hint?: ReactNode;
  /** One message or several (a field's server-side errors). */
  error?: string | string[] | null;
  required?: boolean;
  className?: string;
  children: (control: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean; required?: boolean }) => ReactNode;
}

/** Label, control, hint and error wired together (ids, aria-describedby, aria-invalid). */
export function FieldFrame({ label, hint, error, required, className, children }: FieldFrameProps) {
  // The common namespace: a sign-in form's fields must not wait for another one (docs/decisions/0180).
  const { t } = useTranslation();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const errors = error ? (Array.isArray(error) ? error : [error]) : [];
  const describedBy = [hint ? hintId : null, errors.length ? errorId : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={cx(fieldBox, className)}>
      <label htmlFor={id} className={labelText}>
        {label}
        {required ? (
          <span className={css({ color: 'error.main', ms: '1' })} aria-hidden="true">
            *
          </span>
        ) : null}
        {required ? <span className={css({ srOnly: true })}>{t('field.required')}</span> : null}
      </label>
      {children({ id, 'aria-describedby': describedBy, 'aria-invalid': errors.length ? true : undefined, required })}
      {hint ? (
        <p id={hintId} className={hintText}>
          {hint}
        </p>
      ) : null}
      {errors.length ? (
        <p id={errorId} className={errorText}>
          {errors.join(' ')}
        </p>
      ) : null}
    </div>
  );
}

type Common = { label: ReactNode; hint?: ReactNode; error?: string | string[] | null; className?: string };

export function TextField({ label, hint, error, className, required, ...input }: Common & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldFrame label={label} hint={hint} error={error} required={required} className={className}>
      {(control) => <input {...input} {...control} className={controlStyle} />}
    </FieldFrame>
  );
}

export function TextAreaField({ label, hint, error, className, required, rows = 5, ...area }: Common & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldFrame label={label} hint={hint} error={error} required={required} className={className}>
      {(control) => <textarea rows={rows} {...area} {...control} className={cx(controlStyle, css({ resize: 'vertical', lineHeight: '1.5' }))} />}
    </FieldFrame>
  );
}

/** Problem-details field errors (`{ title: ['…'] }`) for one field, case-insensitively. */
export function fieldError(errors: Record<string, string[]> | null | undefined, field: string): string[] | undefined {
  if (!errors) return undefined;
  const key = Object.keys(errors).find((k) => k.toLowerCase() === field.toLowerCase());
  return key ? errors[key] : undefined;
}
