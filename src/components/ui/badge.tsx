import type { ReactNode } from 'react';
import { cva } from '#styled-system/css';

export const badgeRecipe = cva({
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    gap: '1',
    px: '2',
    py: '0.5',
    borderRadius: 'full',
    fontSize: 'xs',
    fontWeight: 'semibold',
    lineHeight: '1.4',
    whiteSpace: 'nowrap',
    borderWidth: '1px',
  },
  variants: {
    tone: {
      neutral: { bg: 'bg.subtle', color: 'fg.default', borderColor: 'border' },
      primary: { bg: 'primary.lighter', color: 'primary.darker', borderColor: 'primary.light' },
      info: { bg: 'info.lighter', color: 'info.darker', borderColor: 'info.light' },
      success: { bg: 'success.lighter', color: 'success.darker', borderColor: 'success.light' },
      warning: { bg: 'warning.lighter', color: 'warning.darker', borderColor: 'warning.light' },
      error: { bg: 'error.lighter', color: 'error.darker', borderColor: 'error.light' },
    },
  },
  defaultVariants: { tone: 'neutral' },
});

export type BadgeTone = 'neutral' | 'primary' | 'info' | 'success' | 'warning' | 'error';

export function Badge({ tone, children, testId }: { tone?: BadgeTone; children: ReactNode; testId?: string }) {
  return (
    <span className={badgeRecipe({ tone })} data-testid={testId}>
      {children}
    </span>
  );
}
