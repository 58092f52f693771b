import { useState } from 'react';
import { Collapsible } from '@ark-ui/react/collapsible';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { Icon } from '#src/components/ui/icons.tsx';
import { StatusIcon } from './notification-icons.tsx';
import { resolveText } from '#src/lib/error-catalogue.ts';
import type { ErrorDisplay } from '#src/lib/normalize-error.ts';
import { holdHandlers, useToastHold } from './use-toast-hold.ts';

const box = css({
  width: 'full',
  display: 'grid',
  gridTemplateColumns: 'auto 1fr auto',
  alignItems: 'start',
  gap: '3',
  p: '3',
  pe: '2',
  borderRadius: 'md',
  bg: 'error.main',
  color: 'error.contrast',
  boxShadow: 'lg',
  fontSize: 'sm',
  lineHeight: '1.4',
});

const iconButton = css({
  display: 'inline-flex',
  alignItems: 'center',
  justifyContent: 'center',
  width: '8',
  height: '8',
  borderRadius: 'md',
  cursor: 'pointer',
  color: 'inherit',
  _hover: { bg: 'rgba(255,255,255,0.16)' },
  _focusVisible: { outlineColor: 'currentColor' },
});

const detailsToggle = css({
  mt: '2',
  px: '2',
  py: '1',
  borderRadius: 'sm',
  borderWidth: '1px',
  borderColor: 'currentColor',
  fontSize: 'xs',
  fontWeight: 'semibold',
  cursor: 'pointer',
  color: 'inherit',
  _hover: { bg: 'rgba(255,255,255,0.16)' },
  _focusVisible: { outlineColor: 'currentColor' },
});

const detailList = css({
  mt: '2',
  display: 'grid',
  gridTemplateColumns: 'auto 1fr',
  columnGap: '3',
  rowGap: '1',
  fontSize: 'xs',
  wordBreak: 'break-word',
  '& dt': { fontWeight: 'semibold' },
});

/**
 * The error toast of spec §8: red, at the top centre (the toaster's position), a close button,
 * and details (error id, status code, support message) that hold the 5 s timer while open.
 */
export function ErrorToast({ id, display, onClose }: { id: string; display: ErrorDisplay; onClose: () => void }) {
  const { t } = useTranslation('errors');
  const [expanded, setExpanded] = useState(false);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  useToastHold(id, expanded || hovered || focused);
  const text = (value: Parameters<typeof resolveText>[0]) => resolveText(value, (key) => t(key));
  const { details } = display;

  return (
    <div className={box} data-testid="error-toast" data-toast-id={id} {...holdHandlers(setHovered, setFocused)}>
      <StatusIcon name="error" className={css({ mt: '0.5', flexShrink: 0 })} />
      <div className={css({ minWidth: 0 })}>
        <span className={css({ srOnly: true })}>{t('toast.label')}: </span>
        {display.title ? <p className={css({ fontWeight: 'semibold' })}>{text(display.title)}</p> : null}
        {display.lines.map((line, index) => (
          <p key={index} className={css({ whiteSpace: 'pre-line' })}>
            {text(line)}
          </p>
        ))}
        {details ? (
          // Ark UI Collapsible: the toggle carries aria-expanded/aria-controls; Enter or Space on it.
          <Collapsible.Root open={expanded} onOpenChange={(change) => setExpanded(change.open)}>
            <Collapsible.Trigger className={detailsToggle}>{expanded ? t('toast.hideDetails') : t('toast.showDetails')}</Collapsible.Trigger>
            <Collapsible.Content>
              <dl className={detailList}>
                {details.errorId ? (
                  <>
                    <dt>{t('toast.errorId')}</dt>
                    <dd>{details.errorId}</dd>
                  </>
                ) : null}
                {details.statusCode !== null ? (
                  <>
                    <dt>{t('toast.statusCode')}</dt>
                    <dd>{details.statusCode}</dd>
                  </>
                ) : null}
                {details.supportMessage ? (
                  <>
                    <dt>{t('toast.supportMessage')}</dt>
                    <dd>{details.supportMessage}</dd>
                  </>
                ) : null}
              </dl>
            </Collapsible.Content>
          </Collapsible.Root>
        ) : null}
      </div>
      <button type="button" className={iconButton} aria-label={t('toast.close')} onClick={onClose}>
        <Icon name="close" size={18} />
      </button>
    </div>
  );
}
