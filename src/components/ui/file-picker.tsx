import { useId, useRef, useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { css, cx } from '#styled-system/css';
import { useFormat } from '#src/lib/format.ts';
import { Button } from './button.tsx';
import { Icon } from './icons.tsx';

const drop = css({
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
});

export function formatBytes(bytes: number, number: (value: number, options?: Intl.NumberFormatOptions) => string): string {
  if (bytes < 1024) return `${number(bytes)} B`;
  if (bytes < 1024 * 1024) return `${number(bytes / 1024, { maximumFractionDigits: 1 })} KB`;
  return `${number(bytes / (1024 * 1024), { maximumFractionDigits: 1 })} MB`;
}

/**
 * Choose files by button or drag and drop; lists the chosen ones with their size and lets
 * each be removed. Checks `maxBytes` and `maxFiles` on the spot (the server checks again, by
 * content).
 */
export function FilePicker({
  label,
  hint,
  files,
  onChange,
  maxFiles = 5,
  maxBytes,
  accept,
  error,
  disabled,
}: {
  label: string;
  hint?: string;
  files: File[];
  onChange: (files: File[]) => void;
  maxFiles?: number;
  maxBytes?: number;
  accept?: string;
  error?: string | null;
  disabled?: boolean;
}) {
  const { t } = useTranslation('ui');
  const format = useFormat();
  const inputRef = useRef<HTMLInputElement>(null);
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const [over, setOver] = useState(false);

  const add = (incoming: FileList | null) => {
    if (!incoming?.length) return;
    const next = [...files];
    for (const file of Array.from(incoming)) {
      if (maxBytes && file.size > maxBytes) {
        setProblem(t('fileTooLarge', { name: file.name, max: formatBytes(maxBytes, format.number) }));
        continue;
      }
      if (next.length >= maxFiles) {
        setProblem(t('tooManyFiles', { count: maxFiles }));
        break;
      }
      next.push(file);
    }
    onChange(next);
  };

  const message = error ?? problem;
  return (
    <div className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
      <span id={`${id}-label`} className={css({ fontSize: 'sm', fontWeight: 'semibold' })}>
        {label}
      </span>
      <div
        className={cx(drop, over && css({ borderColor: 'primary.main', bg: 'primary.lighter' }))}
        onDragOver={(event: DragEvent) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event: DragEvent) => {
          event.preventDefault();
          setOver(false);
          if (!disabled) add(event.dataTransfer.files);
        }}
      >
        <span>{t('dropFiles')}</span>
        <Button variant="outline" size="sm" disabled={disabled} onClick={() => inputRef.current?.click()} aria-describedby={`${id}-label`}>
          {t('chooseFiles')}
        </Button>
        <input
          ref={inputRef}
          type="file"
          multiple={maxFiles > 1}
          accept={accept}
          hidden
          aria-labelledby={`${id}-label`}
          data-testid="file-input"
          onChange={(event) => {
            setProblem(null);
            add(event.target.files);
            event.target.value = '';
          }}
        />
        {hint ? <span className={css({ fontSize: 'xs' })}>{hint}</span> : null}
      </div>
      {message ? (
        <p role="alert" className={css({ fontSize: 'xs', color: 'error.main' })}>
          {message}
        </p>
      ) : null}
      {files.length ? (
        <ul className={css({ listStyle: 'none', p: 0, m: 0, display: 'flex', flexDirection: 'column', gap: '1' })}>
          {files.map((file, index) => (
            <li key={`${file.name}-${index}`} className={css({ display: 'flex', alignItems: 'center', gap: '2', fontSize: 'sm' })}>
              <span className={css({ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' })}>{file.name}</span>
              <span className={css({ color: 'fg.muted' })}>{formatBytes(file.size, format.number)}</span>
              <button
                type="button"
                className={css({ p: '1', borderRadius: 'md', cursor: 'pointer', _hover: { bg: 'bg.hover' } })}
                aria-label={t('removeFile', { name: file.name })}
                onClick={() => onChange(files.filter((_, i) => i !== index))}
                disabled={disabled}
              >
                <Icon name="close" size={16} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
