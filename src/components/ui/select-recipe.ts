import { sva } from '#styled-system/css';

/** The look of a select and a combobox (Ark UI Select / Combobox parts); its own module so a placeholder can use it without Ark's code. */
export const selectRecipe = sva({
  slots: ['root', 'label', 'trigger', 'indicator', 'positioner', 'content', 'item', 'itemIndicator', 'hint', 'error'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1', minWidth: 0 },
    label: { fontSize: 'sm', fontWeight: 'semibold', color: 'fg.default' },
    trigger: {
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'space-between',
      gap: '2',
      textAlign: 'start',
      cursor: 'pointer',
      '&[data-placeholder-shown]': { color: 'fg.muted' },
    },
    indicator: { flexShrink: 0, color: 'fg.muted', transition: 'transform 0.15s', _open: { transform: 'rotate(180deg)' } },
    // Ark's positioner takes its z-index from the content's (`--z-index`), so both carry it.
    positioner: { zIndex: 'dropdown' },
    content: {
      position: 'relative',
      zIndex: 'dropdown',
      minWidth: '12rem',
      maxHeight: 'min(20rem, var(--available-height, 20rem))',
      overflowY: 'auto',
      py: '1',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border',
      bg: 'bg.surface',
      color: 'fg.default',
      boxShadow: 'lg',
      outline: 'none',
    },
    item: {
      display: 'flex',
      alignItems: 'center',
      gap: '2',
      px: '3',
      py: '2',
      fontSize: 'sm',
      cursor: 'pointer',
      _highlighted: { bg: 'bg.hover' },
      _checked: { fontWeight: 'semibold', color: 'primary.dark' },
      _disabled: { color: 'fg.disabled', cursor: 'not-allowed' },
    },
    itemIndicator: { ms: 'auto', color: 'primary.main' },
    hint: { fontSize: 'xs', color: 'fg.muted' },
    error: { fontSize: 'xs', color: 'error.main', fontWeight: 'medium' },
  },
  variants: {
    /** `inline`: the label beside the control (a list's filter in a toolbar). */
    layout: {
      stacked: {},
      inline: {
        root: { flexDirection: 'row', alignItems: 'center', gap: '2' },
        label: { fontWeight: 'normal', whiteSpace: 'nowrap' },
        trigger: { width: 'auto' },
      },
    },
  },
  defaultVariants: { layout: 'stacked' },
});
