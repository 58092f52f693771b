import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Spinner } from '#src/components/ui/spinner.tsx';

/** Spec §2 and §9: the back-to-home button waits this long before going home. */
export const BACK_HOME_DELAY_MS = 2000;
/** Spec §9: below this width the error screen stacks. */
export const ERROR_SCREEN_SMALL_WIDTH = 1070;

const wide = `@media (min-width: ${ERROR_SCREEN_SMALL_WIDTH}px)`;

const layout = css({
  minHeight: '100vh',
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  justifyContent: 'center',
  gap: '6',
  p: '6',
  textAlign: 'center',
  bg: 'bg.canvas',
  [wide]: { flexDirection: 'row', gap: '16', textAlign: 'start' },
});

const illustration = css({ width: '40', height: '40', color: 'error.main', [wide]: { width: '64', height: '64' } });
const heading = css({ fontSize: '2xl', fontWeight: 'bold', [wide]: { fontSize: '4xl' } });
const actions = css({
  display: 'flex',
  flexDirection: 'column',
  alignItems: 'center',
  gap: '2',
  mt: '4',
  [wide]: { alignItems: 'flex-start' },
});

/**
 * The solid, medium button of src/components/ui/button.tsx written out: this screen is in the
 * entry chunk, and the button's recipe (a class table of every variant and size) is not needed
 * there for one button (docs/decisions/0265). Same atomic classes, so the same look.
 */
const backHomeButton = css({
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
  bg: 'primary.main',
  color: 'primary.contrast',
  _hover: { bg: 'primary.dark' },
  _disabled: { opacity: 0.6, cursor: 'not-allowed' },
  '&[aria-busy=true]': { cursor: 'progress' },
});

/** Goes to '/' and reloads the page (a clean start after a rendering error). */
export function goHomeAndReload() {
  window.history.replaceState(null, '', '/');
  window.location.reload();
}

/** The fallback screen shown after any rendering error (spec §2). */
export function ErrorScreen({ onBackHome = goHomeAndReload }: { onBackHome?: () => void }) {
  const { t } = useTranslation('common');
  const [returning, setReturning] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const backHome = () => {
    if (returning) return;
    setReturning(true);
    timer.current = setTimeout(onBackHome, BACK_HOME_DELAY_MS);
  };

  return (
    <main className={layout} data-testid="error-screen">
      <svg className={illustration} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <circle cx="32" cy="32" r="28" fill="none" stroke="currentColor" strokeWidth="4" />
        <path d="M32 16v22" stroke="currentColor" strokeWidth="5" strokeLinecap="round" />
        <circle cx="32" cy="47" r="3.5" fill="currentColor" />
      </svg>
      <div>
        <h1 className={heading}>{t('errorScreen.title')}</h1>
        <p className={css({ color: 'fg.muted', mt: '2' })}>{t('errorScreen.text')}</p>
        <div className={actions}>
          <span className={css({ color: 'fg.muted' })}>{t('errorScreen.or')}</span>
          <button type="button" className={backHomeButton} onClick={backHome} disabled={returning} aria-busy={returning || undefined}>
            {returning ? <Spinner size="sm" /> : null}
            {returning ? t('errorScreen.returning') : t('errorScreen.backHome')}
          </button>
        </div>
      </div>
    </main>
  );
}
