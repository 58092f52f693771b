import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Icon } from '#src/components/ui/icons.tsx';
import { lazyChunk, loadChunk } from '#src/lib/lazy-chunk.ts';

const importPanel = () => import('./settings-panel.tsx');
// The panel is its own chunk: nothing of it loads until someone reaches for the button.
const SettingsPanel = lazyChunk(importPanel);
const preload = () => void loadChunk(importPanel).catch(() => {});

const trigger = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '10',
  height: '10',
  borderRadius: 'md',
  color: 'fg.default',
  bg: 'bg.muted',
  cursor: 'pointer',
  _hover: { bg: 'bg.hover' },
});

/** The header button that opens the theme settings panel (mode, preset, direction, layout, font, language). */
export function SettingsTrigger() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className={trigger}
        aria-label={t('shell.openSettings')}
        aria-haspopup="dialog"
        aria-expanded={open}
        data-testid="settings-trigger"
        onPointerEnter={preload}
        onFocus={preload}
        onClick={() => setOpen(true)}
      >
        <Icon name="settings" />
      </button>
      {open ? (
        <Suspense fallback={null}>
          <SettingsPanel onClose={() => setOpen(false)} />
        </Suspense>
      ) : null}
    </>
  );
}
