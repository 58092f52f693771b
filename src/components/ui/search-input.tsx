import { useId, type InputHTMLAttributes } from 'react';
import { css, cx } from '#styled-system/css';
import { controlStyle } from './field.tsx';

/**
 * A search box with a (visually hidden) label. It fills its container up to 28rem and sets no
 * flex basis of its own: in a column flex container a 14rem basis became a 14rem *height*,
 * the empty band above the ticket tables (issue 13). A row that shares its width passes
 * `className` with its own `flex`.
 */
export function SearchInput({ label, className, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={cx(css({ width: '100%', minWidth: 'min(14rem, 100%)', maxWidth: '28rem' }), className)}>
      <label htmlFor={id} className={css({ srOnly: true })}>
        {label}
      </label>
      <input id={id} type="search" placeholder={label} autoComplete="off" {...input} className={controlStyle} />
    </div>
  );
}
