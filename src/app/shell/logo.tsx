import { css } from '#styled-system/css';

/**
 * The app's mark, drawn inline so it takes the colour preset's primary colour (issue 23: the
 * logo stayed blue under every preset). The same shape as /favicon.svg, which a browser tab
 * shows before any preset is known.
 */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg viewBox="0 0 32 32" width={size} height={size} aria-hidden="true" focusable="false" data-testid="app-logo" className={css({ flexShrink: 0 })}>
      <rect width="32" height="32" rx="6" className={css({ fill: 'primary.main' })} />
      <path d="M9 10h14v3H12.5v2.5H21v3h-8.5V21H23v3H9z" className={css({ fill: 'primary.contrast' })} />
    </svg>
  );
}
