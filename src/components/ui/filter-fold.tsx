import { Collapsible } from '@ark-ui/react/collapsible';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from '#styled-system/css';
import { useIsPhone } from '#src/lib/use-media-query.ts';
import { Button } from './button.tsx';

const panel = css({ display: 'grid', gap: '3', mt: '3' });

/**
 * A list's filters (issue 23): on a phone they fold behind one button that says how many are on
 * (Ark UI Collapsible: the button carries aria-expanded and aria-controls, Enter or Space opens
 * it), so the list itself starts near the top of the screen; from the sm breakpoint up they are
 * laid out as given. The search field stays outside: it is the first thing a phone user needs.
 */
export function FilterFold({ active, children, className }: { active: number; children: ReactNode; className?: string }) {
  const { t } = useTranslation('ui');
  const phone = useIsPhone();
  if (!phone) return <>{children}</>;
  return (
    <Collapsible.Root>
      <Collapsible.Trigger asChild>
        <Button variant="outline" size="sm" data-testid="filters-toggle">
          {t('filters.toggle', { count: active })}
        </Button>
      </Collapsible.Trigger>
      <Collapsible.Content className={cx(panel, className)} data-testid="filters-panel">
        {children}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
