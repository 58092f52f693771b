import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { P } from '#machines/permissions.ts';
import { EXPORT_HEADER_LANGUAGES, exportCatalogue, type ExportFilters } from '#machines/results/export-catalogue.ts';
import { formatDateTime } from '#src/lib/format.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { examStore, exportTemplateStore } from '#src/app/stores/slices.ts';
import { Button } from '#src/components/ui/button.tsx';
import { useConfirm } from '#src/components/ui/confirm-dialog.tsx';
import { DataTable, type Column } from '#src/components/ui/data-table.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { ProgressBar } from '#src/components/ui/progress.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { saveFile } from '#src/lib/save-file.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { useItemWorkspace } from '#src/features/items/index.ts';
import { paperCallFailure, papersApi } from '#src/features/papers/index.ts';
import { examsApi, NoProjectState, projectsApi } from '#src/features/projects/index.ts';
import { centersApi, seasonsApi } from '#src/features/seasons/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { css } from '#styled-system/css';
import { statisticsApi, type ExportRunRecord, type ExportTemplateBody, type ExportTemplateRecord } from './api/statistics-api.ts';
import { ExportTemplateDialog, type FilterChoices } from './components/export-template-dialog.tsx';

/**
 * The export template slice (spec §4, docs/decisions/0258), with the semantics of the record
 * slices (src/app/stores/record-slices.ts) — written here so the first render's modules do not
 * grow: a save stores the server's record, deleting the held one removes it, a failed save resets it.
 */
const templateSlice = {
  store: (record: ExportTemplateRecord) => exportTemplateStore.trigger.select({ record: { ...record } as Record<string, unknown> }),
  drop: (id: number) => {
    if (exportTemplateStore.getSnapshot().context.selected?.exportTemplateId === id) exportTemplateStore.trigger.remove();
  },
  fail: () => exportTemplateStore.trigger.failure(),
};

const REGISTRATION_STATUSES = ['Submitted', 'Approved', 'Rejected', 'Allocated', 'AdmitCardIssued', 'Attended', 'Absent', 'Cancelled'];
const POLL_MS = 1000;

/** The choices of each filter: the project's exams, seasons, the tenant's centers, the selected exam's papers. */
function useFilterChoices(): FilterChoices {
  const { t } = useTranslation('projects');
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  const [choices, setChoices] = useState<Omit<FilterChoices, 'status'>>({ examId: [], paperId: [], seasonId: [], centerId: [] });
  useEffect(() => {
    let live = true;
    const options = <T,>(list: T[], value: (x: T) => number, label: (x: T) => string) => list.map((x) => ({ value: String(value(x)), label: label(x) }));
    void Promise.allSettled([
      examsApi.search({ pageNumber: 1, pageSize: 100, keyword: '', orderBy: null, filters: {} }),
      seasonsApi.all(),
      centersApi.active(),
      exam ? papersApi.list() : Promise.resolve([]),
    ]).then(([exams, seasons, centers, papers]) => {
      if (!live) return;
      setChoices({
        examId:
          exams.status === 'fulfilled'
            ? options(
                exams.value.data,
                (e) => e.examId,
                (e) => `${e.code} · ${e.name}`,
              )
            : [],
        seasonId:
          seasons.status === 'fulfilled'
            ? options(
                seasons.value.data,
                (s) => s.seasonId,
                (s) => s.name,
              )
            : [],
        centerId:
          centers.status === 'fulfilled'
            ? options(
                centers.value.data,
                (c) => c.centerId,
                (c) => `${c.code} · ${c.name}`,
              )
            : [],
        paperId:
          papers.status === 'fulfilled'
            ? options(
                papers.value,
                (p) => p.paperId,
                (p) => `${p.code} · ${p.title}`,
              )
            : [],
      });
    });
    return () => {
      live = false;
    };
  }, [exam]);
  return useMemo(() => ({ ...choices, status: REGISTRATION_STATUSES.map((s) => ({ value: s, label: t(`results.registrationStatus.${s}`) })) }), [choices, t]);
}

const runTone = { queued: 'neutral', running: 'info', finished: 'success', failed: 'error' } as const;

function RunDialog({
  template,
  filterChoices,
  onClose,
  onStarted,
}: {
  template: ExportTemplateRecord;
  filterChoices: FilterChoices;
  onClose: () => void;
  onStarted: (run: ExportRunRecord) => void;
}) {
  const { t } = useTranslation('projects');
  const [language, setLanguage] = useState('en');
  const [filters, setFilters] = useState<ExportFilters>(template.filters);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const needs = exportCatalogue[template.recordKind].needs;
  const languages = EXPORT_HEADER_LANGUAGES.filter((l) => l === 'en' || template.columns.some((c) => (c.headers as Record<string, string | undefined>)[l]));
  return (
    <Dialog
      title={t('results.run.title', { name: template.name })}
      onClose={onClose}
      busy={busy}
      testId="export-run-dialog"
      onSubmit={(event) => {
        event.preventDefault();
        if (needs && filters[needs as 'paperId'] === undefined) {
          setFailure(t('results.run.needsPaper'));
          return;
        }
        setBusy(true);
        setFailure(null);
        statisticsApi
          .run(template.exportTemplateId, { filters, language })
          .then(onStarted, async (error: unknown) => setFailure((await paperCallFailure(error)).messages.join(' ') || t('results.run.failed')))
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button type="button" variant="outline" onClick={onClose} disabled={busy}>
            {t('results.builder.cancel')}
          </Button>
          <Button type="submit" disabled={busy} data-testid="export-run-start">
            {t('results.run.start')}
          </Button>
        </>
      }
    >
      <div className={css({ display: 'grid', gap: '3' })}>
        {failure ? (
          <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })} data-testid="export-run-failure">
            {failure}
          </p>
        ) : null}
        <SelectField
          label={t('results.run.language')}
          value={language}
          onValueChange={setLanguage}
          options={languages.map((l) => ({ value: l, label: t(`results.language.${l}`) }))}
          testId="export-run-language"
        />
        {exportCatalogue[template.recordKind].filters.map((name) => (
          <SelectField
            key={name}
            label={t(`results.filter.${name}`)}
            value={filters[name] === undefined ? '' : String(filters[name])}
            placeholder={t('results.filter.any')}
            onValueChange={(value) =>
              setFilters((current) => {
                const next = { ...current } as Record<string, unknown>;
                if (value === '') delete next[name];
                else next[name] = name === 'status' ? value : Number(value);
                return next as ExportFilters;
              })
            }
            options={filterChoices[name]}
            required={needs === name}
            testId={`export-run-filter-${name}`}
          />
        ))}
      </div>
    </Dialog>
  );
}

function ExportTemplates({ projectId }: { projectId: number }) {
  const { t, i18n } = useTranslation('projects');
  const workspace = useItemWorkspace();
  const [templates, setTemplates] = useState<ExportTemplateRecord[] | null>(null);
  const [runs, setRuns] = useState<ExportRunRecord[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [canConfigure, setCanConfigure] = useState(false);
  const [editing, setEditing] = useState<ExportTemplateRecord | 'new' | null>(null);
  const [running, setRunning] = useState<ExportTemplateRecord | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const errorText = useErrorText(error);
  const filterChoices = useFilterChoices();
  const { confirm, element: confirmElement } = useConfirm();

  const load = useCallback(() => {
    setError(null);
    return Promise.all([statisticsApi.templates(), statisticsApi.runs().catch(() => [] as ExportRunRecord[])]).then(
      ([list, latest]) => {
        setTemplates(list);
        setRuns(latest);
      },
      (failed: unknown) => {
        setTemplates(null);
        setError(failed ?? new Error('failed'));
      },
    );
  }, []);
  useEffect(() => {
    void load();
    projectsApi.get(projectId).then(
      (detail) => setCanConfigure(detail.canConfigure),
      () => setCanConfigure(false),
    );
  }, [load, projectId]);

  // While an export is being written, its progress is read again every second.
  const pending = runs.some((r) => r.state === 'queued' || r.state === 'running');
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => {
      void statisticsApi.runs().then(setRuns, () => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [pending]);

  async function save(body: ExportTemplateBody) {
    setFailure(null);
    try {
      const saved =
        editing && editing !== 'new'
          ? await statisticsApi.editTemplate(editing.exportTemplateId, {
              name: body.name,
              fileType: body.fileType,
              columns: body.columns,
              filters: body.filters,
              version: editing.version,
            })
          : await statisticsApi.createTemplate(body);
      templateSlice.store(saved);
      setEditing(null);
      void notify.success(t('results.builder.saved', { name: saved.name }));
      await load();
    } catch (refusal) {
      templateSlice.fail();
      const why = await paperCallFailure(refusal);
      setFailure(why.conflict === 'stale' ? t('results.builder.stale') : why.messages.join(' ') || t('results.builder.failed'));
    }
  }

  async function remove(template: ExportTemplateRecord) {
    const yes = await confirm({
      title: t('results.builder.confirmDelete', { name: template.name }),
      message: t('results.builder.confirmDeleteBody'),
      confirmLabel: t('results.actions.delete'),
      tone: 'danger',
    });
    if (!yes) return;
    try {
      await statisticsApi.removeTemplate(template.exportTemplateId, template.version);
      templateSlice.drop(template.exportTemplateId);
      void notify.success(t('results.builder.deleted', { name: template.name }));
      await load();
    } catch (refusal) {
      void notify.error((await paperCallFailure(refusal)).messages.join(' ') || t('results.builder.failed'));
    }
  }

  async function downloadRun(run: ExportRunRecord) {
    try {
      const { blob, filename } = await statisticsApi.file(run.runId);
      saveFile(blob, filename ?? run.fileName ?? 'export');
    } catch (refusal) {
      void notify.error((await paperCallFailure(refusal)).messages.join(' ') || t('results.run.downloadFailed'));
    }
  }

  const dateTime = (iso: string) => formatDateTime(iso, { locale: i18n.language });
  const columns: Column<ExportTemplateRecord>[] = [
    { key: 'name', header: t('results.field.name'), cell: (x) => x.name },
    { key: 'kind', header: t('results.field.kind'), cell: (x) => t(`results.recordKind.${x.recordKind}`) },
    { key: 'fileType', header: t('results.field.fileType'), cell: (x) => t(`results.fileType.${x.fileType}`), hideOnSmall: true },
    { key: 'columns', header: t('results.field.columns'), cell: (x) => x.columns.length, align: 'end', hideOnSmall: true },
    { key: 'updated', header: t('results.field.updated'), cell: (x) => dateTime(x.updatedAt), hideOnSmall: true },
    {
      key: 'actions',
      header: t('results.field.actions'),
      cell: (x) => (
        <span className={css({ display: 'inline-flex', gap: '2', flexWrap: 'wrap' })}>
          {canConfigure ? (
            <>
              <Button
                size="sm"
                onClick={() => setRunning(x)}
                aria-label={t('results.actions.runNamed', { name: x.name })}
                data-testid={`run-${x.exportTemplateId}`}
              >
                {t('results.actions.run')}
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => {
                  setFailure(null);
                  setEditing(x);
                }}
                aria-label={t('results.actions.editNamed', { name: x.name })}
                data-testid={`edit-${x.exportTemplateId}`}
              >
                {t('results.actions.edit')}
              </Button>
              <Button size="sm" variant="outline" onClick={() => void remove(x)} aria-label={t('results.actions.deleteNamed', { name: x.name })}>
                {t('results.actions.delete')}
              </Button>
            </>
          ) : (
            <span className={css({ color: 'fg.muted' })}>{t('results.list.readOnly')}</span>
          )}
        </span>
      ),
    },
  ];
  const runColumns: Column<ExportRunRecord>[] = [
    { key: 'template', header: t('results.run.template'), cell: (r) => r.templateName },
    { key: 'started', header: t('results.run.started'), cell: (r) => dateTime(r.createdAt), hideOnSmall: true },
    {
      key: 'progress',
      header: t('results.run.progress'),
      cell: (r) => (
        <div className={css({ display: 'grid', gap: '1', minWidth: '10rem' })} data-testid={`run-progress-${r.runId}`}>
          <span className={css({ fontSize: 'xs', color: `${runTone[r.state]}.dark` })}>
            {t(`results.run.state.${r.state}`)} · {t('results.run.rows', { written: r.rowsWritten, total: r.totalRows })}
          </span>
          {r.state === 'running' || r.state === 'queued' ? (
            <ProgressBar
              label={t('results.run.progressOf', { name: r.templateName })}
              value={r.totalRows ? r.rowsWritten : null}
              max={Math.max(1, r.totalRows)}
              size="sm"
            />
          ) : null}
        </div>
      ),
    },
    {
      key: 'file',
      header: t('results.run.file'),
      cell: (r) =>
        r.state === 'finished' ? (
          <Button
            size="sm"
            variant="outline"
            onClick={() => void downloadRun(r)}
            aria-label={t('results.run.downloadNamed', { name: r.fileName ?? r.templateName })}
          >
            {t('results.run.download')}
          </Button>
        ) : r.state === 'failed' ? (
          <span className={css({ color: 'error.main', fontSize: 'sm' })}>{r.message}</span>
        ) : (
          '–'
        ),
    },
  ];

  return (
    <section aria-labelledby="exports-title" className={css({ display: 'grid', gap: '4' })}>
      <PageHeader
        id="exports-title"
        title={t('results.list.title')}
        description={t('results.list.intro')}
        actions={
          canConfigure ? (
            <Button
              onClick={() => {
                setFailure(null);
                setEditing('new');
              }}
              data-testid="new-export-template"
            >
              {t('results.list.new')}
            </Button>
          ) : null
        }
      />
      <div className={card}>
        {error ? (
          <ErrorState message={errorText ?? t('results.list.failed')} onRetry={() => void load()} />
        ) : templates === null ? (
          <LoadingState />
        ) : templates.length === 0 ? (
          <EmptyState title={t('results.list.none')}>{t('results.list.noneHint')}</EmptyState>
        ) : (
          <DataTable
            caption={t('results.list.caption')}
            columns={columns}
            rows={templates}
            rowKey={(x) => x.exportTemplateId}
            testId="export-templates-table"
          />
        )}
      </div>
      {templates !== null ? (
        <section aria-labelledby="runs-title" className={card}>
          <h2 id="runs-title" className={css({ fontWeight: 'semibold', p: '4', pb: '0' })}>
            {t('results.run.latest')}
          </h2>
          {runs.length === 0 ? (
            <EmptyState title={t('results.run.none')} />
          ) : (
            <DataTable caption={t('results.run.caption')} columns={runColumns} rows={runs} rowKey={(r) => r.runId} testId="export-runs-table" />
          )}
        </section>
      ) : null}
      {editing ? (
        <ExportTemplateDialog
          template={editing === 'new' ? null : editing}
          languages={workspace.languages}
          filterChoices={filterChoices}
          failure={failure}
          onClose={() => setEditing(null)}
          onSave={save}
        />
      ) : null}
      {running ? (
        <RunDialog
          template={running}
          filterChoices={filterChoices}
          onClose={() => setRunning(null)}
          onStarted={(run) => {
            setRunning(null);
            setRuns((current) => [run, ...current.filter((r) => r.runId !== run.runId)]);
            void notify.success(t('results.run.startedToast', { name: run.templateName }));
          }}
        />
      ) : null}
      {confirmElement}
    </section>
  );
}

function ExportTemplatesScreen() {
  const workspace = useItemWorkspace();
  if (!workspace.project) return <NoProjectState />;
  return <ExportTemplates key={workspace.projectId} projectId={workspace.projectId!} />;
}

export default function ExportTemplatesPage() {
  return (
    <PermissionGate permission={P.Projects.View}>
      <ExportTemplatesScreen />
    </PermissionGate>
  );
}
