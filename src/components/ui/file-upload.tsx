import { useCallback, useState } from 'react';
import { FileUpload as ArkFileUpload, type FileUploadFileRejectDetails } from '@ark-ui/react/file-upload';
import { useTranslation } from 'react-i18next';
import { sva } from '#styled-system/css';
import { useFormat } from '#src/lib/format.ts';
import { Icon } from './icons.tsx';
import { useDir } from './use-dir.ts';

export type SizeUnit = 'bytes' | 'kilobytes' | 'megabytes';

/**
 * A size in the user's language (issue 23: "KB" beside "Mo" in French): the number through
 * Intl, the unit through `unit` — `t('ui:size.<unit>', { value })` in a screen, see
 * useFormatBytes.
 */
export function formatBytes(
  bytes: number,
  number: (value: number, options?: Intl.NumberFormatOptions) => string,
  unit: (unit: SizeUnit, value: string) => string,
): string {
  if (bytes < 1024) return unit('bytes', number(bytes));
  if (bytes < 1024 * 1024) return unit('kilobytes', number(bytes / 1024, { maximumFractionDigits: 1 }));
  return unit('megabytes', number(bytes / (1024 * 1024), { maximumFractionDigits: 1 }));
}

/** formatBytes with the user's number format and translated units. */
export function useFormatBytes(): (bytes: number) => string {
  const { t } = useTranslation('ui');
  const format = useFormat();
  return useCallback((bytes: number) => formatBytes(bytes, format.number, (unit, value) => t(`size.${unit}`, { value })), [t, format.number]);
}

export const fileUploadRecipe = sva({
  slots: ['root', 'label', 'dropzone', 'trigger', 'hint', 'error', 'itemGroup', 'item', 'itemName', 'itemSize', 'itemDelete'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1' },
    label: { fontSize: 'sm', fontWeight: 'semibold' },
    dropzone: {
      display: 'flex',
      flexDirection: 'column',
      alignItems: 'center',
      gap: '2',
      p: '4',
      borderWidth: '2px',
      borderStyle: 'dashed',
      borderColor: 'border.strong',
      borderRadius: 'md',
      textAlign: 'center',
      fontSize: 'sm',
      color: 'fg.muted',
      '&[data-dragging]': { borderColor: 'primary.main', bg: 'primary.lighter' },
      '&[data-disabled]': { opacity: 0.7 },
    },
    trigger: {
      display: 'inline-flex',
      alignItems: 'center',
      gap: '2',
      height: '8',
      px: '3',
      borderRadius: 'md',
      borderWidth: '1px',
      borderColor: 'border.strong',
      bg: 'bg.surface',
      color: 'fg.default',
      fontSize: 'sm',
      fontWeight: 'medium',
      cursor: 'pointer',
      _hover: { bg: 'bg.hover' },
      _disabled: { cursor: 'not-allowed', opacity: 0.6 },
      _focusVisible: { outline: '2px solid', outlineColor: 'focusRing', outlineOffset: '2px' },
    },
    hint: { fontSize: 'xs' },
    error: { fontSize: 'xs', color: 'error.main' },
    itemGroup: { listStyle: 'none', p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: '1' },
    item: { display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' },
    itemName: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
    itemSize: { color: 'fg.muted' },
    itemDelete: { p: '1', borderRadius: 'md', cursor: 'pointer', _hover: { bg: 'bg.hover' }, _disabled: { cursor: 'not-allowed', opacity: 0.6 } },
  },
});

export interface FileUploadProps {
  label: string;
  hint?: string;
  files: File[];
  onChange: (files: File[]) => void;
  maxFiles?: number;
  maxBytes?: number;
  accept?: string;
  error?: string | null;
  disabled?: boolean;
}

/**
 * Choose files (Ark UI FileUpload): a "Choose files" button (Enter or Space opens the browser's
 * picker), a drop area for the mouse, and the chosen files with their size, each removable.
 * `maxBytes` and `maxFiles` are checked on the spot; the server checks again, by content.
 */
export function FileUpload({ label, hint, files, onChange, maxFiles = 5, maxBytes, accept, error, disabled }: FileUploadProps) {
  const { t } = useTranslation('ui');
  const formatSize = useFormatBytes();
  const dir = useDir();
  const classes = fileUploadRecipe();
  const [problem, setProblem] = useState<string | null>(null);

  const rejected = ({ files: refused }: FileUploadFileRejectDetails) => {
    const first = refused[0];
    if (!first) return;
    if (first.errors.includes('TOO_MANY_FILES')) setProblem(t('tooManyFiles', { max: maxFiles }));
    else if (first.errors.includes('FILE_TOO_LARGE') && maxBytes) setProblem(t('fileTooLarge', { name: first.file.name, max: formatSize(maxBytes) }));
    else setProblem(t('fileRefused', { name: first.file.name }));
  };

  const message = error ?? problem;
  return (
    <ArkFileUpload.Root
      className={classes.root}
      acceptedFiles={files}
      maxFiles={maxFiles}
      maxFileSize={maxBytes}
      accept={accept}
      disabled={disabled}
      dir={dir}
      translations={{ dropzone: t('dropFiles') }}
      // The files come from the accept event, not onFileChange: after a refusal, Ark's change
      // event can report the accepted list before it is updated (an empty list).
      onFileAccept={(details) => {
        setProblem(null);
        onChange(maxFiles > 1 ? [...files, ...details.files].slice(0, maxFiles) : details.files.slice(0, 1));
      }}
      onFileReject={rejected}
    >
      <ArkFileUpload.Label className={classes.label}>{label}</ArkFileUpload.Label>
      {/* A drop target for the mouse; the button in it is the keyboard's way in. */}
      <ArkFileUpload.Dropzone className={classes.dropzone} disableClick role="group">
        <span aria-hidden="true">{t('dropFiles')}</span>
        <ArkFileUpload.Trigger className={classes.trigger}>{t('chooseFiles')}</ArkFileUpload.Trigger>
        {hint ? <span className={classes.hint}>{hint}</span> : null}
      </ArkFileUpload.Dropzone>
      {message ? (
        <p role="alert" className={classes.error}>
          {message}
        </p>
      ) : null}
      <ArkFileUpload.ItemGroup className={classes.itemGroup}>
        {files.map((file, index) => (
          <ArkFileUpload.Item key={`${file.name}-${index}`} file={file} className={classes.item}>
            <ArkFileUpload.ItemName className={classes.itemName} />
            <span className={classes.itemSize}>{formatSize(file.size)}</span>
            <button
              type="button"
              className={classes.itemDelete}
              aria-label={t('removeFile', { name: file.name })}
              disabled={disabled}
              onClick={() => onChange(files.filter((_, i) => i !== index))}
            >
              <Icon name="close" size={16} />
            </button>
          </ArkFileUpload.Item>
        ))}
      </ArkFileUpload.ItemGroup>
      <ArkFileUpload.HiddenInput data-testid="file-input" />
    </ArkFileUpload.Root>
  );
}
