import type { ReactNode } from 'react';
import { css } from '#styled-system/css';

export function PageHeader({ title, description, actions, id }: { title: ReactNode; description?: ReactNode; actions?: ReactNode; id?: string }) {
  return (
    <div className={css({ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-end', justifyContent: 'space-between', gap: '3', mb: '4' })}>
      <div className={css({ minWidth: 0 })}>
        <h1 id={id} className={css({ fontSize: '2xl', fontWeight: 'bold', lineHeight: '1.2' })}>
          {title}
        </h1>
        {description ? <p className={css({ color: 'fg.muted', mt: '1', fontSize: 'sm' })}>{description}</p> : null}
      </div>
      {actions ? <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2' })}>{actions}</div> : null}
    </div>
  );
}

/** A bordered surface for page sections. */
export const card = css({ bg: 'bg.surface', borderWidth: '1px', borderColor: 'border', borderRadius: 'lg' });
