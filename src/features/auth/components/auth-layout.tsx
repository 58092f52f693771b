import type { ReactNode } from 'react';
import { css } from '#styled-system/css';
import { ContentRendered } from '#src/app/content-rendered.tsx';

const page = css({
  minHeight: '100vh',
  display: 'flex',
  alignItems: 'center',
  justifyContent: 'center',
  p: { base: '3', sm: '6' },
  bg: 'bg.canvas',
});

const panel = css({
  width: '100%',
  maxWidth: '28rem',
  bg: 'bg.surface',
  borderWidth: '1px',
  borderColor: 'border',
  borderRadius: 'lg',
  p: { base: '5', sm: '8' },
  display: 'flex',
  flexDirection: 'column',
  gap: '4',
});

/** The frame of the sign-in and account screens: one card with the screen's heading. */
export function AuthLayout({ title, description, children, footer }: { title: ReactNode; description?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  return (
    <main id="main-content" className={page}>
      <div className={panel}>
        <div>
          <h1 className={css({ fontSize: '2xl', fontWeight: 'bold', lineHeight: '1.2' })}>{title}</h1>
          {description ? <p className={css({ color: 'fg.muted', mt: '1', fontSize: 'sm' })}>{description}</p> : null}
        </div>
        <ContentRendered>{children}</ContentRendered>
        {footer ? <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', justifyContent: 'space-between', fontSize: 'sm' })}>{footer}</div> : null}
      </div>
    </main>
  );
}

export const formStyle = css({ display: 'flex', flexDirection: 'column', gap: '4' });
export const linkStyle = css({ color: 'primary.main', textDecoration: 'underline', _hover: { color: 'primary.dark' } });

/** A failure of the whole form, announced to screen readers. */
export function FormAlert({ children, testId = 'form-error' }: { children: ReactNode; testId?: string }) {
  if (!children) return null;
  return (
    <p
      role="alert"
      data-testid={testId}
      className={css({
        color: 'fg.default',
        fontSize: 'sm',
        fontWeight: 'medium',
        bg: 'bg.muted',
        borderInlineStartWidth: '4px',
        borderColor: 'error.main',
        borderRadius: 'md',
        px: '3',
        py: '2',
      })}
    >
      {children}
    </p>
  );
}

/** A success of the whole form. */
export function FormSuccess({ children }: { children: ReactNode }) {
  return (
    <p
      role="status"
      data-testid="form-success"
      className={css({
        color: 'fg.default',
        fontSize: 'sm',
        bg: 'bg.muted',
        borderInlineStartWidth: '4px',
        borderColor: 'success.main',
        borderRadius: 'md',
        px: '3',
        py: '2',
      })}
    >
      {children}
    </p>
  );
}
