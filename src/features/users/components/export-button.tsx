import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { Button } from '#src/components/ui/button.tsx';
import { ProgressBar } from '#src/components/ui/progress.tsx';
import type { DownloadResult, ProgressListener, TransferProgress } from '#src/lib/http/transfer.ts';
import { saveFile } from '#src/lib/save-file.ts';

/** A download button that shows its progress while the file streams in and then offers it to save. */
export function DownloadButton({
  label,
  fallbackName,
  fetchFile,
  variant = 'outline',
  size,
  testId,
  ariaLabel,
}: {
  label: string;
  fallbackName: string;
  fetchFile: (onProgress: ProgressListener) => Promise<DownloadResult>;
  variant?: 'outline' | 'ghost' | 'solid';
  size?: 'sm' | 'md';
  testId?: string;
  ariaLabel?: string;
}) {
  const { t } = useTranslation('users');
  const [progress, setProgress] = useState<TransferProgress | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async () => {
    setBusy(true);
    setProgress({ loaded: 0, total: null, fraction: null });
    try {
      const { blob, filename } = await fetchFile(setProgress);
      saveFile(blob, filename ?? fallbackName);
    } catch (error) {
      void notify.error(error);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  const percent = progress?.fraction != null ? Math.round(progress.fraction * 100) : null;
  return (
    <span className={css({ display: 'inline-flex', alignItems: 'center', gap: '2' })}>
      <Button variant={variant} size={size} onClick={() => void run()} loading={busy} data-testid={testId} aria-label={ariaLabel}>
        {label}
      </Button>
      {busy ? <ProgressBar size="sm" value={percent} label={t('transfer.downloading')} testId={testId ? `${testId}-progress` : undefined} /> : null}
    </span>
  );
}
