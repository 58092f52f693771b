import { ListSkeleton } from '#src/components/ui/skeleton.tsx';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { P } from '#machines/permissions.ts';
import { PermissionGate } from './components/permission-gate.tsx';
import { css } from '#styled-system/css';
import { notify } from '#src/app/notifications/notify.ts';
import { Badge, type BadgeTone } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { DataTable, type Column } from '#src/components/ui/data-table.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { FileUpload } from '#src/components/ui/file-upload.tsx';
import { ProgressBar } from '#src/components/ui/progress.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { Pagination } from '#src/components/ui/pagination.tsx';
import { EmptyState, ErrorState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import type { TransferProgress } from '#src/lib/http/transfer.ts';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usersApi, type UploadJob } from './api/users-api.ts';
import { DownloadButton } from './components/export-button.tsx';

/** docs/decisions/0043: uploads up to 5 MB. */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
/** docs/decisions/0047: how often the job list asks again while a job is queued or running. */
export const JOB_POLL_MS = 2_000;
const XLSX = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const stateTone: Record<string, BadgeTone> = { queued: 'neutral', running: 'info', finished: 'success', failed: 'error' };
const knownStates = ['queued', 'running', 'finished', 'failed'];

export const isWorking = (job: UploadJob) => job.state === 'queued' || job.state === 'running';

/** Bulk upload of users from the .xlsx template, with the list of upload jobs and their error files. */
function BulkUploadPage() {
  const { t } = useTranslation('users');
  const format = useFormat();
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<TransferProgress | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);
  const jobs = usePagedSearch<UploadJob>((query) => usersApi.jobs(query), { orderBy: ['createdOn desc'] });
  const jobsError = useErrorText(jobs.error);
  const result = jobs.result;
  const sendJobs = jobs.send;
  const working = Boolean(result?.data.some(isWorking));

  // The list updates by itself until every job on it has finished or failed.
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => sendJobs({ type: 'search.reload' }), JOB_POLL_MS);
    return () => clearInterval(timer);
  }, [working, sendJobs]);

  const uploading = progress !== null;
  // Spec §7 RedirectUrl on bulk upload (issue 23): a path of this app, or nothing.
  const [landing, setLanding] = useState('');
  const landingBad = landing.trim() !== '' && !/^\/(?!\/)[^\s]*$/.test(landing.trim());
  const submit = async () => {
    const [file] = files;
    if (!file || landingBad) return;
    setFailure(null);
    setProgress({ loaded: 0, total: file.size, fraction: 0 });
    try {
      const answer = await usersApi.uploadUsers(file, setProgress, landing.trim() || null);
      void notify.success(t('bulk.queued', { name: answer.fileName }));
      setFiles([]);
      jobs.send({ type: 'search.reload' });
    } catch (error) {
      setFailure(error);
    } finally {
      setProgress(null);
    }
  };

  const columns: Column<UploadJob>[] = [
    { key: 'file', header: t('bulk.file'), cell: (j) => <span className={css({ fontWeight: 'semibold', wordBreak: 'break-all' })}>{j.fileName}</span> },
    {
      key: 'createdOn',
      header: t('bulk.uploadedOn'),
      hideOnSmall: true,
      cell: (j) => (
        <time dir="auto" dateTime={j.createdOn}>
          {format.dateTime(j.createdOn)}
        </time>
      ),
    },
    {
      key: 'state',
      header: t('bulk.state'),
      cell: (j) => (
        <span>
          <Badge tone={stateTone[j.state] ?? 'neutral'} testId={`job-state-${j.jobId}`}>
            {knownStates.includes(j.state) ? t(`bulk.states.${j.state}`) : j.state}
          </Badge>
          {isWorking(j) && j.totalRows > 0 ? (
            <ProgressBar
              size="sm"
              value={j.createdCount + j.failedCount}
              max={j.totalRows}
              label={t('bulk.jobProgress', { name: j.fileName })}
              testId={`job-progress-${j.jobId}`}
            />
          ) : null}
          {j.state === 'failed' && j.message ? <span className={css({ display: 'block', fontSize: 'xs', color: 'error.main' })}>{j.message}</span> : null}
        </span>
      ),
    },
    { key: 'total', header: t('bulk.total'), align: 'end', cell: (j) => <span data-testid="job-total">{format.number(j.totalRows)}</span> },
    { key: 'created', header: t('bulk.created'), align: 'end', cell: (j) => <span data-testid="job-created">{format.number(j.createdCount)}</span> },
    { key: 'failed', header: t('bulk.failed'), align: 'end', cell: (j) => <span data-testid="job-failed">{format.number(j.failedCount)}</span> },
    {
      key: 'errors',
      header: <span className={css({ srOnly: true })}>{t('bulk.errorFile')}</span>,
      align: 'end',
      cell: (j) =>
        j.hasErrorFile && !isWorking(j) ? (
          <DownloadButton
            size="sm"
            label={t('bulk.errorFile')}
            ariaLabel={t('bulk.errorFileOf', { name: j.fileName })}
            fallbackName="upload-errors.xlsx"
            fetchFile={(onProgress) => usersApi.downloadErrorFile(j.jobId, onProgress)}
            testId={`error-file-${j.jobId}`}
          />
        ) : null,
    },
  ];

  const percent = progress?.fraction != null ? Math.round(progress.fraction * 100) : null;
  return (
    <section aria-labelledby="bulk-title">
      <PageHeader
        id="bulk-title"
        title={t('bulk.title')}
        description={t('bulk.intro')}
        actions={
          <DownloadButton
            label={t('bulk.template')}
            fallbackName="user-template.xlsx"
            fetchFile={(onProgress) => usersApi.downloadTemplate(onProgress)}
            testId="download-template"
          />
        }
      />
      <form
        className={css({ display: 'flex', flexDirection: 'column', gap: '3', p: '4', mb: '4' }) + ' ' + card}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <FileUpload
          label={t('bulk.chooseFile')}
          hint={t('bulk.fileHint')}
          files={files}
          onChange={setFiles}
          maxFiles={1}
          maxBytes={MAX_UPLOAD_BYTES}
          accept={XLSX}
          disabled={uploading}
        />
        <TextField
          label={t('bulk.landing')}
          hint={t('bulk.landingHint')}
          value={landing}
          onChange={(event) => setLanding(event.target.value)}
          placeholder="/"
          maxLength={2048}
          error={landingBad ? t('bulk.landingBad') : undefined}
          disabled={uploading}
        />
        {uploading ? <ProgressBar value={percent} label={t('transfer.uploading')} testId="upload-progress" /> : null}
        {failureText ? (
          <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
            {failureText}
          </p>
        ) : null}
        <div>
          <Button type="submit" disabled={files.length === 0} loading={uploading}>
            {t('bulk.upload')}
          </Button>
        </div>
      </form>
      <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold', mb: '2' })}>{t('bulk.jobs')}</h2>
      <div className={card}>
        {jobs.error ? (
          <ErrorState message={jobsError} onRetry={() => jobs.send({ type: 'search.reload' })} />
        ) : !result ? (
          <ListSkeleton />
        ) : result.totalCount === 0 ? (
          <EmptyState title={t('bulk.noJobs')} />
        ) : (
          <>
            <DataTable caption={t('bulk.jobs')} columns={columns} rows={result.data} rowKey={(j) => j.jobId} busy={false} testId="jobs-table" />
            <div className={css({ px: '4' })}>
              <Pagination
                page={result.currentPage}
                pageSize={result.pageSize}
                totalCount={result.totalCount}
                totalPages={result.totalPages}
                onPage={(pageNumber) => jobs.send({ type: 'search.page', pageNumber })}
                onPageSize={(pageSize) => jobs.send({ type: 'search.pageSize', pageSize })}
              />
            </div>
          </>
        )}
      </div>
    </section>
  );
}

/** The screen behind its permission. */
export default function GatedBulkUploadPage() {
  return (
    <PermissionGate permission={P.Users.Import}>
      <BulkUploadPage />
    </PermissionGate>
  );
}
