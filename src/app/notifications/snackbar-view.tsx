import { useSelector } from '@xstate/react';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cva, cx } from '#styled-system/css';
import { SNACKBAR_ENTER_MS, SNACKBAR_EXIT_MS, type SnackbarState, type SnackbarTransition } from '#machines/snackbar.machine.ts';
import { Icon } from '#src/components/ui/icons.tsx';
import { snackbarActor } from './snackbar-runtime.ts';

const OFFSET = '24px';
/** How far a slide starts outside its final place. */
const SLIDE = 'calc(100% + 24px)';

/** Enter keyframes per transition (spec §3); the exit plays them backwards. */
export const transitionKeyframes: Record<SnackbarTransition, Keyframe[]> = {
  SlideLeft: [{ transform: `translateX(${SLIDE})` }, { transform: 'none' }],
  SlideRight: [{ transform: `translateX(calc(-1 * ${SLIDE}))` }, { transform: 'none' }],
  SlideUp: [{ transform: `translateY(${SLIDE})` }, { transform: 'none' }],
  SlideDown: [{ transform: `translateY(calc(-1 * ${SLIDE}))` }, { transform: 'none' }],
  Grow: [
    { opacity: 0, transform: 'scale(0.75)' },
    { opacity: 1, transform: 'none' },
  ],
  Fade: [{ opacity: 0 }, { opacity: 1 }],
};

const reducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** Plays the enter transition on every open and the exit while closing (225 ms / 195 ms). */
function useSnackbarTransition(element: React.RefObject<HTMLDivElement | null>, phase: string, transition: SnackbarTransition, openCount: boolean) {
  useLayoutEffect(() => {
    const node = element.current;
    if (!node || typeof node.animate !== 'function' || phase === 'closed') return;
    const frames = reducedMotion() ? transitionKeyframes.Fade : transitionKeyframes[transition];
    const animation =
      phase === 'closing'
        ? node.animate([...frames].reverse(), { duration: SNACKBAR_EXIT_MS, easing: 'cubic-bezier(0.4, 0, 1, 1)', fill: 'forwards' })
        : node.animate(frames, { duration: SNACKBAR_ENTER_MS, easing: 'cubic-bezier(0, 0, 0.2, 1)' });
    return () => animation.cancel();
  }, [element, phase, transition, openCount]);
}

const anchor = cva({
  base: {
    position: 'fixed',
    insetInline: OFFSET,
    zIndex: 'toast',
    display: 'flex',
    pointerEvents: 'none',
    '& > *': { pointerEvents: 'auto' },
  },
  variants: {
    vertical: { top: { top: OFFSET }, bottom: { bottom: OFFSET } },
    horizontal: { left: { justifyContent: 'flex-start' }, center: { justifyContent: 'center' }, right: { justifyContent: 'flex-end' } },
  },
});

const surface = css({
  display: 'flex',
  alignItems: 'center',
  flexWrap: 'wrap',
  gap: '2',
  minWidth: { base: 'auto', sm: '288px' },
  maxWidth: '568px',
  minHeight: '12',
  ps: '4',
  pe: '2',
  py: '1.5',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'transparent',
  boxShadow: 'lg',
  fontSize: 'sm',
});

/** The default variant: the dark bar of a classic snackbar. */
const defaultVariant = css({ bg: { base: '#323232', _dark: '#e0e0e0' }, color: { base: '#ffffff', _dark: '#1e1e1e' } });

/** Alert colours as custom properties, then the alert variants built on them. */
const alertColor = cva({
  variants: {
    color: {
      primary: {
        '--snack-main': 'token(colors.primary.main)',
        '--snack-contrast': 'token(colors.primary.contrast)',
        '--snack-light': 'token(colors.primary.lighter)',
      },
      secondary: {
        '--snack-main': { base: '#6a1b9a', _dark: '#ce93d8' },
        '--snack-contrast': { base: '#ffffff', _dark: '#1d0826' },
        '--snack-light': { base: '#f3e5f5', _dark: '#2a1433' },
      },
      success: {
        '--snack-main': 'token(colors.success.main)',
        '--snack-contrast': { base: '#ffffff', _dark: '#0b1a0c' },
        '--snack-light': 'token(colors.success.lighter)',
      },
      warning: {
        '--snack-main': 'token(colors.warning.main)',
        '--snack-contrast': { base: '#ffffff', _dark: '#1f1300' },
        '--snack-light': 'token(colors.warning.lighter)',
      },
      error: { '--snack-main': 'token(colors.error.main)', '--snack-contrast': 'token(colors.error.contrast)', '--snack-light': 'token(colors.error.lighter)' },
      info: {
        '--snack-main': { base: '#0277bd', _dark: '#4fc3f7' },
        '--snack-contrast': { base: '#ffffff', _dark: '#01141f' },
        '--snack-light': { base: '#e1f5fe', _dark: '#0a2533' },
      },
    },
    variant: {
      filled: { bg: 'var(--snack-main)', color: 'var(--snack-contrast)' },
      outlined: { bg: 'bg.surface', color: 'fg.default', borderColor: 'var(--snack-main)', '& [data-part=icon]': { color: 'var(--snack-main)' } },
      standard: { bg: 'var(--snack-light)', color: 'fg.default', '& [data-part=icon]': { color: 'var(--snack-main)' } },
    },
  },
});

const actionButton = css({
  px: '2',
  py: '1.5',
  borderRadius: 'sm',
  fontWeight: 'bold',
  fontSize: 'sm',
  letterSpacing: 'wide',
  cursor: 'pointer',
  color: 'inherit',
  _hover: { bg: 'rgba(127,127,127,0.2)' },
  _focusVisible: { outlineColor: 'currentColor' },
});

const selectView = (s: ReturnType<typeof snackbarActor.getSnapshot>) => ({ phase: s.value as 'closed' | 'opened' | 'closing', state: s.context });
const sameView = (a: ReturnType<typeof selectView>, b: ReturnType<typeof selectView>) => a.phase === b.phase && a.state === b.state;

/** The snackbar of spec §3/§4 (loaded with its first open). */
export default function SnackbarView() {
  const { phase, state } = useSelector(snackbarActor, selectView, sameView);
  const { t } = useTranslation('notifications');
  const element = useRef<HTMLDivElement>(null);
  useSnackbarTransition(element, phase, state.transition, state.action);
  if (phase === 'closed') return null;
  return <SnackbarContent state={state} phase={phase} element={element} t={t} />;
}

function SnackbarContent({
  state,
  phase,
  element,
  t,
}: {
  state: SnackbarState;
  phase: string;
  element: React.RefObject<HTMLDivElement | null>;
  t: (key: string) => string;
}) {
  const alert = state.variant === 'alert';
  return (
    <div
      className={anchor(state.anchorOrigin)}
      data-testid="snackbar-anchor"
      data-vertical={state.anchorOrigin.vertical}
      data-horizontal={state.anchorOrigin.horizontal}
    >
      <div
        ref={element}
        role={alert && (state.alert.color === 'error' || state.alert.color === 'warning') ? 'alert' : 'status'}
        data-testid="snackbar"
        data-state={phase}
        data-variant={state.variant}
        data-alert={alert ? `${state.alert.color} ${state.alert.variant}` : undefined}
        data-transition={state.transition}
        className={cx(surface, alert ? alertColor(state.alert) : defaultVariant)}
      >
        <span className={css({ flex: '1', py: '1.5', minWidth: 0 })}>{state.message ?? t('snackbar.defaultMessage')}</span>
        {state.actionButton ? (
          <button type="button" className={actionButton} onClick={() => snackbarActor.send({ type: 'snackbar.action' })}>
            {t('snackbar.undo')}
          </button>
        ) : null}
        {state.close ? (
          <button
            type="button"
            className={css({
              display: 'inline-flex',
              p: '1.5',
              borderRadius: 'md',
              cursor: 'pointer',
              color: 'inherit',
              _hover: { bg: 'rgba(127,127,127,0.2)' },
            })}
            aria-label={t('snackbar.close')}
            onClick={() => snackbarActor.send({ type: 'snackbar.close' })}
          >
            <Icon name="close" size={18} />
          </button>
        ) : null}
      </div>
    </div>
  );
}
