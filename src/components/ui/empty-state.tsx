import type { ReactNode } from 'react';
import { css } from '#styled-system/css';

/** The centred box of every loading, empty and error state (./states.tsx). */
export const stateBox = css({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '2',
  py: '10',
  px: '4',
  textAlign: 'center',
  color: 'fg.muted',
});

export function EmptyState({ title, children, action }: { title: ReactNode; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className={stateBox} data-testid="empty-state">
      <p className={css({ fontWeight: 'semibold', color: 'fg.default' })}>{title}</p>
      {children ? <p className={css({ fontSize: 'sm' })}>{children}</p> : null}
      {action}
    </div>
  );
}
