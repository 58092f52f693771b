import { Progress as ArkProgress } from '@ark-ui/react/progress';
import { sva } from '#styled-system/css';
import { useDir } from './use-dir.ts';

export const progressRecipe = sva({
  slots: ['root', 'track', 'range', 'valueText'],
  base: {
    root: { display: 'flex', alignItems: 'center', gap: '2', minWidth: 0 },
    track: { position: 'relative', flex: '1', minWidth: '4rem', height: '2', borderRadius: 'full', bg: 'bg.muted', overflow: 'hidden' },
    range: {
      height: '100%',
      borderRadius: 'full',
      bg: 'primary.main',
      transition: 'width 0.2s',
      '&[data-state=indeterminate]': { width: '40%', animation: 'progressSlide 1.2s ease-in-out infinite' },
    },
    valueText: { fontSize: 'xs', color: 'fg.muted', fontVariantNumeric: 'tabular-nums', minWidth: '3em', textAlign: 'end' },
  },
  variants: {
    size: { sm: { root: { width: '6rem' } }, full: { root: { width: '100%' } } },
  },
  defaultVariants: { size: 'full' },
});

/**
 * A transfer's or a job's progress (Ark UI Progress): a progressbar named by `label`, with its
 * value in percent beside it. `value: null` is "under way, amount not known" (indeterminate).
 */
export function ProgressBar({
  label,
  value,
  max = 100,
  size,
  testId,
}: {
  label: string;
  value: number | null;
  max?: number;
  size?: 'sm' | 'full';
  testId?: string;
}) {
  const dir = useDir();
  const classes = progressRecipe({ size });
  return (
    <ArkProgress.Root className={classes.root} value={value} min={0} max={max} dir={dir}>
      <ArkProgress.Track className={classes.track} aria-label={label} data-testid={testId}>
        <ArkProgress.Range className={classes.range} />
      </ArkProgress.Track>
      {value !== null ? <ArkProgress.ValueText className={classes.valueText} /> : null}
    </ArkProgress.Root>
  );
}
