import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cva } from '#styled-system/css';
import { Icon } from '#src/components/ui/icons.tsx';
import { StatusIcon } from './notification-icons.tsx';
import { resolveText, type DisplayText } from '#src/lib/error-catalogue.ts';
import type { MessageKind } from './notify.ts';
import { holdHandlers, useToastHold } from './use-toast-hold.ts';

const box = cva({
  base: {
    width: 'full',
    display: 'grid',
    gridTemplateColumns: 'auto 1fr auto',
    alignItems: 'center',
    gap: '3',
    p: '3',
    pe: '2',
    borderRadius: 'md',
    bg: 'bg.surface',
    color: 'fg.default',
    borderWidth: '1px',
    borderColor: 'border',
    borderInlineStartWidth: '4px',
    boxShadow: 'lg',
    fontSize: 'sm',
  },
  variants: {
    kind: {
      success: { borderInlineStartColor: 'success.main', '& > svg': { color: 'success.main' } },
      info: { borderInlineStartColor: 'primary.main', '& > svg': { color: 'primary.main' } },
      warning: { borderInlineStartColor: 'warning.main', '& > svg': { color: 'warning.main' } },
    },
  },
});

/** A success, information or warning toast: its message, and a close button. */
export function MessageToast({ id, kind, message, onClose }: { id: string; kind: MessageKind; message: DisplayText; onClose: () => void }) {
  const { t } = useTranslation('notifications');
  const { t: tErrors } = useTranslation('errors');
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  useToastHold(id, hovered || focused);
  return (
    <div className={box({ kind })} data-testid={`${kind}-toast`} data-toast-id={id} {...holdHandlers(setHovered, setFocused)}>
      <StatusIcon name={kind} />
      <p className={css({ minWidth: 0 })}>
        <span className={css({ srOnly: true })}>{t(`toast.${kind}`)}: </span>
        {resolveText(message, (key) => tErrors(key))}
      </p>
      <button
        type="button"
        aria-label={t('toast.close')}
        onClick={onClose}
        className={css({ display: 'inline-flex', p: '1.5', borderRadius: 'md', cursor: 'pointer', color: 'fg.muted', _hover: { bg: 'bg.hover' } })}
      >
        <Icon name="close" size={18} />
      </button>
    </div>
  );
}
