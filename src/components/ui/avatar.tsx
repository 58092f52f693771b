import { Avatar as ArkAvatar } from '@ark-ui/react/avatar';
import { sva } from '#styled-system/css';

export const avatarRecipe = sva({
  slots: ['root', 'image', 'fallback'],
  base: {
    root: {
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      flexShrink: 0,
      borderRadius: 'full',
      overflow: 'hidden',
      bg: 'primary.lighter',
      color: 'primary.dark',
      fontWeight: 'semibold',
      userSelect: 'none',
    },
    image: { width: '100%', height: '100%', objectFit: 'cover' },
    fallback: { lineHeight: 1, textTransform: 'uppercase' },
  },
  variants: {
    size: {
      sm: { root: { width: '7', height: '7', fontSize: 'xs' } },
      md: { root: { width: '9', height: '9', fontSize: 'sm' } },
    },
  },
  defaultVariants: { size: 'sm' },
});

// One segmenter for every avatar: building one per name cost about 4 ms a table row on a
// throttled phone CPU (issue 22, a CPU profile of /users).
let graphemeSegmenter: Intl.Segmenter | undefined;
const graphemes = () => (graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' }));

/** Up to two initials from a person's name ("Asha Rao" → "AR"), by grapheme, in any script. */
export function initialsOf(name: string): string {
  const words = name
    .trim()
    .replace(/@.*$/u, '')
    .split(/[\s._-]+/u)
    .filter(Boolean);
  // A word that starts with two ASCII characters starts with a one-character grapheme: the
  // segmenter, whose first use loads the browser's break data (about 40 ms on a phone, in the
  // header's first render), is for the other scripts only (issue 22).
  const first = (word: string | undefined) =>
    !word ? '' : /^[\x21-\x7e](?:[\x21-\x7e]|$)/.test(word) ? word[0] : (Array.from(graphemes().segment(word))[0]?.segment ?? '');
  if (words.length === 0) return '?';
  return words.length === 1 ? first(words[0]) : first(words[0]) + first(words[words.length - 1]);
}

/**
 * A person's picture, or their initials while it loads or when there is none (Ark UI Avatar).
 * It is decoration beside the name, which is always written next to it: hidden from
 * assistive technology.
 */
export function Avatar({ name, src, size }: { name: string; src?: string | null; size?: 'sm' | 'md' }) {
  const classes = avatarRecipe({ size });
  // Without a picture there is nothing to load: the initials alone, without Ark's state machine,
  // which a page of table rows built one of per row (issue 22).
  if (!src)
    return (
      <div className={classes.root} aria-hidden="true" data-testid="avatar">
        <span className={classes.fallback}>{initialsOf(name)}</span>
      </div>
    );
  return (
    <ArkAvatar.Root className={classes.root} aria-hidden="true" data-testid="avatar">
      <ArkAvatar.Fallback className={classes.fallback}>{initialsOf(name)}</ArkAvatar.Fallback>
      <ArkAvatar.Image className={classes.image} src={src} alt="" />
    </ArkAvatar.Root>
  );
}
