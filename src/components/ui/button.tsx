import { forwardRef, type ButtonHTMLAttributes } from 'react';
import { cva, cx, type RecipeVariantProps } from '#styled-system/css';
import { Spinner } from './spinner.tsx';

export const buttonRecipe = cva({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    borderRadius: 'md',
    fontWeight: 'semibold',
    fontSize: 'sm',
    lineHeight: '1.2',
    px: '4',
    minHeight: '10',
    cursor: 'pointer',
    transitionProperty: 'background-color, color, border-color, box-shadow',
    transitionDuration: 'enter',
    borderWidth: '1px',
    borderColor: 'transparent',
    _disabled: { opacity: 0.6, cursor: 'not-allowed' },
    '&[aria-busy=true]': { cursor: 'progress' },
  },
  variants: {
    variant: {
      solid: { bg: 'primary.main', color: 'primary.contrast', _hover: { bg: 'primary.dark' } },
      outline: { borderColor: 'primary.main', color: 'primary.main', bg: 'transparent', _hover: { bg: 'primary.lighter' } },
      ghost: { color: 'fg.default', bg: 'transparent', _hover: { bg: 'bg.hover' } },
      // Outlined in the error colour, filled on hover: a destructive action never looks like the
      // solid primary button, even under presets whose primary is red-like (Rose, Orange; issue 23).
      danger: {
        bg: 'bg.surface',
        color: 'error.main',
        borderColor: 'error.main',
        borderWidth: '2px',
        _hover: { bg: 'error.main', color: 'error.contrast' },
      },
    },
    size: {
      sm: { minHeight: '8', px: '3', fontSize: 'xs' },
      md: {},
      lg: { minHeight: '12', px: '6', fontSize: 'md' },
      icon: { minHeight: '10', minWidth: '10', px: '0' },
    },
  },
  defaultVariants: { variant: 'solid', size: 'md' },
});

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> &
  RecipeVariantProps<typeof buttonRecipe> & {
    /** Shows a spinner, marks the button busy and ignores clicks. */
    loading?: boolean;
  };

export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant, size, loading = false, className, children, disabled, type = 'button', ...rest },
  ref,
) {
  return (
    <button
      ref={ref}
      type={type}
      className={cx(buttonRecipe({ variant, size }), className)}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      {...rest}
    >
      {loading ? <Spinner size="sm" /> : null}
      {children}
    </button>
  );
});
