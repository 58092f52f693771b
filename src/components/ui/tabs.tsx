import type { ReactNode } from 'react';
import { Tabs as ArkTabs } from '@ark-ui/react/tabs';
import { sva } from '#styled-system/css';
import { useDir } from './use-dir.ts';

export const tabsRecipe = sva({
  slots: ['root', 'list', 'trigger', 'content'],
  base: {
    root: { display: 'flex', flexDirection: 'column' },
    list: { display: 'flex', gap: '2', mb: '3', borderBottomWidth: '1px', borderColor: 'border', overflowX: 'auto' },
    trigger: {
      px: '3',
      py: '2',
      fontSize: 'sm',
      fontWeight: 'semibold',
      borderBottomWidth: '2px',
      borderColor: 'transparent',
      cursor: 'pointer',
      color: 'fg.muted',
      whiteSpace: 'nowrap',
      _selected: { borderColor: 'primary.main', color: 'fg.default' },
      _hover: { color: 'fg.default' },
    },
    content: { outline: 'none' },
  },
});

export interface TabItem<V extends string> {
  value: V;
  label: ReactNode;
}

/**
 * Tabs on Ark UI (roles, arrow keys in the reading direction, Home/End). Only the selected
 * panel renders its content; the others stay as empty panels so every tab controls one.
 */
export function Tabs<V extends string>({
  label,
  value,
  onChange,
  tabs,
  children,
}: {
  label: string;
  value: V;
  onChange: (value: V) => void;
  tabs: TabItem<V>[];
  children: (value: V) => ReactNode;
}) {
  const dir = useDir();
  const classes = tabsRecipe();
  return (
    <ArkTabs.Root className={classes.root} value={value} onValueChange={(details) => onChange(details.value as V)} dir={dir}>
      <ArkTabs.List className={classes.list} aria-label={label}>
        {tabs.map((tab) => (
          <ArkTabs.Trigger key={tab.value} value={tab.value} className={classes.trigger}>
            {tab.label}
          </ArkTabs.Trigger>
        ))}
      </ArkTabs.List>
      {tabs.map((tab) => (
        <ArkTabs.Content key={tab.value} value={tab.value} className={classes.content}>
          {tab.value === value ? children(tab.value) : null}
        </ArkTabs.Content>
      ))}
    </ArkTabs.Root>
  );
}
