import { useId, type InputHTMLAttributes } from 'react';
import { css, cx } from '#styled-system/css';
import { controlStyle } from './field.tsx';

/** A search box with a (visually hidden) label. */
export function SearchInput({ label, className, ...input }: { label: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={cx(css({ minWidth: '14rem', flex: '1 1 14rem', maxWidth: '28rem' }), className)}>
      <label htmlFor={id} className={css({ srOnly: true })}>
        {label}
      </label>
      <input id={id} type="search" placeholder={label} autoComplete="off" {...input} className={controlStyle} />
    </div>
  );
}
