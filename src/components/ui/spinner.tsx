import { css, cx } from '#styled-system/css';

const spinner = css({
  display: 'inline-block',
  borderRadius: 'full',
  borderWidth: '2px',
  borderStyle: 'solid',
  borderColor: 'currentColor',
  borderInlineEndColor: 'transparent',
  animation: 'spin 0.8s linear infinite',
  flexShrink: 0,
  '@media (prefers-reduced-motion: reduce)': { animationDuration: '2.4s' },
});

const sizes = { sm: css({ width: '4', height: '4' }), md: css({ width: '6', height: '6' }), lg: css({ width: '10', height: '10' }) };

/** Decorative by default; pass `label` when the spinner is the only sign of loading. */
export function Spinner({ size = 'md', label }: { size?: keyof typeof sizes; label?: string }) {
  return label ? (
    <span role="status" className={cx(spinner, sizes[size])}>
      <span className={css({ srOnly: true })}>{label}</span>
    </span>
  ) : (
    <span aria-hidden="true" className={cx(spinner, sizes[size])} />
  );
}
