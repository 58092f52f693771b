import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import type { ImportJob } from '#machines/items/item-records.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { Badge, type BadgeTone } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { FileUpload } from '#src/components/ui/file-upload.tsx';
import { ProgressBar } from '#src/components/ui/progress.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import type { TransferProgress } from '#src/lib/http/transfer.ts';
import { saveFile } from '#src/lib/save-file.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { NoProjectState } from '#src/features/projects/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { itemsApi } from './api/items-api.ts';
import { useItemWorkspace, type ItemWorkspace } from './lib/use-item-workspace.ts';

/**
 * Import QTI 3.0 / 2.x items and IMS packages, or the .xlsx template, as a job with counts and a
 * report per item or row (docs/decisions/0123); export a category as a QTI 3.0 package.
 */
export const IMPORT_POLL_MS = 1_500;
export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;
const ACCEPT = '.xml,.zip,.xlsx,application/xml,text/xml,application/zip,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const tone: Record<string, BadgeTone> = { queued: 'neutral', running: 'info', done: 'success', failed: 'error' };
export const isWorking = (job: ImportJob) => job.state === 'queued' || job.state === 'running';

function JobRow({ job }: { job: ImportJob }) {
  const { t } = useTranslation('items');
  const fraction = job.total ? Math.min(1, job.processed / job.total) : 0;
  return (
    <li
      className={css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'md', p: '3', display: 'grid', gap: '2' })}
      data-testid={`import-job-${job.fileName}`}
    >
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
        <strong>{job.fileName}</strong>
        <Badge tone={tone[job.state] ?? 'neutral'} testId={`import-state-${job.fileName}`}>
          {t(`import.state.${job.state}`)}
        </Badge>
        <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>{t(`import.format.${job.format}`)}</span>
      </div>
      {isWorking(job) ? (
        <ProgressBar label={t('import.progress', { name: job.fileName })} value={Math.round(fraction * 100)} testId={`import-progress-${job.fileName}`} />
      ) : null}
      <p data-testid={`import-counts-${job.fileName}`}>
        {t('import.counts', { total: job.total, processed: job.processed, created: job.created, failed: job.failed, files: job.filesCreated })}
      </p>
      {job.message ? <p role="alert">{job.message}</p> : null}
      {job.problems.length ? (
        <details>
          <summary className={css({ cursor: 'pointer' })}>{t('import.problems', { count: job.problems.length })}</summary>
          <table
            className={css({
              borderCollapse: 'collapse',
              fontSize: 'sm',
              mt: '2',
              '& th, & td': { borderWidth: '1px', borderColor: 'border', p: '1', textAlign: 'start', verticalAlign: 'top' },
            })}
          >
            <thead>
              <tr>
                <th scope="col">{job.format === 'xlsx' ? t('import.row') : t('import.identifier')}</th>
                <th scope="col">{t('import.reasons')}</th>
              </tr>
            </thead>
            <tbody>
              {job.problems.map((problem, index) => (
                <tr key={index}>
                  <td className={css({ fontFamily: 'mono' })}>{problem.row ?? problem.identifier ?? problem.source ?? '—'}</td>
                  <td>
                    <ul>
                      {problem.reasons.map((reason, i) => (
                        <li key={i}>{reason}</li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      ) : null}
      <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
        {job.failed > 0 && !isWorking(job) ? (
          <Button
            size="sm"
            variant="outline"
            onClick={() =>
              void itemsApi.importErrors(job.jobId).then(
                ({ blob, filename }) => saveFile(blob, filename ?? `import-errors-${job.jobId}.xlsx`),
                () => void notify.error(t('import.errorFileFailed')),
              )
            }
            data-testid={`import-errors-${job.fileName}`}
          >
            {t('import.errorFile')}
          </Button>
        ) : null}
        {job.createdItemIds.length ? (
          <Link to={`/items/${job.createdItemIds[0]}`} className={css({ textDecoration: 'underline', color: 'primary.dark', alignSelf: 'center' })}>
            {t('import.openFirst')}
          </Link>
        ) : null}
      </div>
    </li>
  );
}

function ImportScreen({ workspace }: { workspace: ItemWorkspace }) {
  const { t } = useTranslation('items');
  const [categoryId, setCategoryId] = useState('');
  const [language, setLanguage] = useState('en');
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<TransferProgress | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const failureText = useErrorText(failure);
  const [jobs, setJobs] = useState<ImportJob[] | null>(null);
  const [jobsFailed, setJobsFailed] = useState(false);
  const [exportCategory, setExportCategory] = useState('');
  const [exporting, setExporting] = useState(false);
  const load = useCallback(() => {
    itemsApi.importJobs().then(
      (list) => {
        setJobs(list);
        setJobsFailed(false);
      },
      () => setJobsFailed(true),
    );
  }, []);
  useEffect(load, [load]);
  const working = Boolean(jobs?.some(isWorking));
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(load, IMPORT_POLL_MS);
    return () => clearInterval(timer);
  }, [working, load]);

  const submit = async () => {
    const [file] = files;
    if (!file || !categoryId) return;
    setFailure(null);
    setProgress({ loaded: 0, total: file.size, fraction: 0 });
    try {
      const job = await itemsApi.importFile(file, Number(categoryId), language, setProgress);
      setJobs((current) => [job, ...(current ?? []).filter((j) => j.jobId !== job.jobId)]);
      setFiles([]);
      void notify.success(t('import.started', { name: file.name }));
      load();
    } catch (error) {
      setFailure(error);
    } finally {
      setProgress(null);
    }
  };

  const exportCategoryPackage = async () => {
    if (!exportCategory) return;
    setExporting(true);
    try {
      const { blob, filename } = await itemsApi.exportItems({ categoryId: Number(exportCategory), includeSubcategories: true });
      saveFile(blob, filename ?? 'category-qti.zip');
    } catch {
      void notify.error(t('export.failed'));
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      <PageHeader
        title={t('import.title')}
        description={t('import.intro')}
        actions={
          <Button
            variant="outline"
            onClick={() =>
              void itemsApi.template().then(
                ({ blob, filename }) => saveFile(blob, filename ?? 'items-template.xlsx'),
                () => void notify.error(t('import.templateFailed')),
              )
            }
            data-testid="import-template"
          >
            {t('import.template')}
          </Button>
        }
      />
      <form
        className={`${card} ${css({ p: '4', display: 'grid', gap: '3' })}`}
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
        aria-labelledby="import-form-title"
      >
        <h2 id="import-form-title" className={css({ fontWeight: 'semibold' })}>
          {t('import.formTitle')}
        </h2>
        <div className={css({ display: 'flex', gap: '3', flexWrap: 'wrap' })}>
          <SelectField
            label={t('import.intoCategory')}
            value={categoryId}
            placeholder={t('field.chooseCategory')}
            onValueChange={(value) => setCategoryId(value)}
            options={workspace.categoryOptions}
            required
            testId="import-category"
          />
          <SelectField
            label={t('import.language')}
            hint={t('import.languageHint')}
            value={language}
            onValueChange={(value) => setLanguage(value)}
            options={workspace.languages.map((l) => ({ value: l, label: t(`language.${l}`, { defaultValue: l }) }))}
            testId="import-language"
          />
        </div>
        <FileUpload
          label={t('import.file')}
          hint={t('import.fileHint')}
          files={files}
          onChange={setFiles}
          maxFiles={1}
          maxBytes={MAX_IMPORT_BYTES}
          accept={ACCEPT}
          disabled={progress !== null}
        />
        {progress ? (
          <ProgressBar
            label={t('import.uploading')}
            value={progress.fraction === null ? null : Math.round(progress.fraction * 100)}
            testId="import-upload-progress"
          />
        ) : null}
        {failureText ? (
          <p role="alert" className={css({ color: 'error.main' })}>
            {failureText}
          </p>
        ) : null}
        <div>
          <Button type="submit" disabled={!files.length || !categoryId} loading={progress !== null} data-testid="import-submit">
            {t('import.submit')}
          </Button>
        </div>
      </form>

      <section aria-labelledby="import-jobs-title" className={`${card} ${css({ p: '4', display: 'grid', gap: '3' })}`}>
        <h2 id="import-jobs-title" className={css({ fontWeight: 'semibold' })}>
          {t('import.jobs')}
        </h2>
        {jobsFailed ? <ErrorState onRetry={load} /> : jobs === null ? <LoadingState /> : jobs.length === 0 ? <EmptyState title={t('import.noJobs')} /> : null}
        {jobs?.length ? (
          <ul className={css({ display: 'grid', gap: '2' })} aria-live="polite" data-testid="import-jobs">
            {jobs.map((job) => (
              <JobRow key={job.jobId} job={job} />
            ))}
          </ul>
        ) : null}
      </section>

      <section aria-labelledby="export-title" className={`${card} ${css({ p: '4', display: 'grid', gap: '3' })}`}>
        <h2 id="export-title" className={css({ fontWeight: 'semibold' })}>
          {t('export.categoryTitle')}
        </h2>
        <div className={css({ display: 'flex', gap: '3', alignItems: 'end', flexWrap: 'wrap' })}>
          <SelectField
            label={t('field.category')}
            value={exportCategory}
            placeholder={t('field.chooseCategory')}
            onValueChange={(value) => setExportCategory(value)}
            options={workspace.categoryOptions}
            testId="export-category"
          />
          <Button
            variant="outline"
            disabled={!exportCategory}
            loading={exporting}
            onClick={() => void exportCategoryPackage()}
            data-testid="export-category-submit"
          >
            {t('export.category')}
          </Button>
        </div>
      </section>
    </div>
  );
}

function ItemImportPage() {
  const workspace = useItemWorkspace();
  if (!workspace.project) return <NoProjectState />;
  return <ImportScreen key={String(workspace.projectId)} workspace={workspace} />;
}

export default function GatedItemImportPage() {
  return (
    <PermissionGate permission={P.Projects.View}>
      <ItemImportPage />
    </PermissionGate>
  );
}
