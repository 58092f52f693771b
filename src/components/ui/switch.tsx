import { useId } from 'react';
import { Switch as ArkSwitch } from '@ark-ui/react/switch';
import { sva } from '#styled-system/css';

export const switchRecipe = sva({
  slots: ['root', 'control', 'thumb', 'label', 'hint'],
  base: {
    root: { display: 'flex', alignItems: 'flex-start', gap: '3', py: '2', cursor: 'pointer' },
    control: {
      position: 'relative',
      flexShrink: 0,
      width: '10',
      height: '6',
      mt: '0.5',
      borderRadius: 'full',
      bg: 'bg.subtle',
      borderWidth: '1px',
      borderColor: 'border.strong',
      transitionProperty: 'background-color',
      transitionDuration: 'enter',
      _checked: { bg: 'primary.main', borderColor: 'primary.main' },
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
      '@media (prefers-reduced-motion: reduce)': { transitionDuration: '0s' },
    },
    thumb: {
      position: 'absolute',
      top: '2px',
      insetInlineStart: '2px',
      width: '4.5',
      height: '4.5',
      borderRadius: 'full',
      bg: 'fg.muted',
      transitionProperty: 'inset-inline-start, background-color',
      transitionDuration: 'enter',
      _checked: { insetInlineStart: 'calc(100% - token(sizes.4.5) - 2px)', bg: 'primary.contrast' },
      '@media (prefers-reduced-motion: reduce)': { transitionDuration: '0s' },
    },
    label: { display: 'block', fontSize: 'sm', fontWeight: 'semibold' },
    hint: { display: 'block', fontSize: 'xs', color: 'fg.muted' },
  },
});

/**
 * An on/off setting (Ark UI Switch). The whole row is clickable; the name is the label alone
 * and the hint its description. The native checkbox underneath carries role="switch".
 */
export function Switch({
  label,
  hint,
  checked,
  onChange,
  testId,
}: {
  label: string;
  hint?: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  testId?: string;
}) {
  const hintId = useId();
  const classes = switchRecipe();
  return (
    <ArkSwitch.Root className={classes.root} checked={checked} onCheckedChange={(details) => onChange(details.checked)}>
      <ArkSwitch.HiddenInput role="switch" aria-describedby={hint ? hintId : undefined} data-testid={testId} />
      <ArkSwitch.Control className={classes.control}>
        <ArkSwitch.Thumb className={classes.thumb} />
      </ArkSwitch.Control>
      <span>
        <ArkSwitch.Label className={classes.label}>{label}</ArkSwitch.Label>
        {hint ? (
          <span id={hintId} className={classes.hint}>
            {hint}
          </span>
        ) : null}
      </span>
    </ArkSwitch.Root>
  );
}
