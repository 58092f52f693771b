import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { registrationStatusNames } from '#machines/exams/registration.machine.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { registrationStore } from '#src/app/stores/slices.ts';
import { selectedSeason, updateSeason } from '#src/app/stores/workspace-selection.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { DataTable, type Column } from '#src/components/ui/data-table.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { FileUpload } from '#src/components/ui/file-upload.tsx';
import { FilterFold } from '#src/components/ui/filter-fold.tsx';
import { RowMenu, type MenuAction } from '#src/components/ui/menu.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { saveFile } from '#src/lib/save-file.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { useItemWorkspace } from '#src/features/items/index.ts';
import { NoProjectState } from '#src/features/projects/index.ts';
import { DownloadButton, PermissionGate } from '#src/features/users/index.ts';
import {
  registrationsApi,
  seasonsApi,
  type Registration,
  type RegistrationEventName,
  type RegistrationUpload,
  type Season,
  type SeasonCenter,
} from './api/seasons-api.ts';
import { ReasonDialog } from './components/reason-dialog.tsx';
import { failureText } from './lib/call-failure.ts';
import { registrationTone } from './lib/registration-tone.ts';
import { useLanguageName } from './lib/language-name.ts';

const XLSX = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const asRecord = (value: object) => value as unknown as Record<string, unknown>;

/** Choose a center for a manual allocation or a move: the season's centers with their free seats. */
function CenterDialog({
  registration,
  centers,
  move,
  onClose,
  onDone,
}: {
  registration: Registration;
  centers: SeasonCenter[];
  move: boolean;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation('seasons');
  const [centerId, setCenterId] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const options = centers
    .filter((c) => c.centerId !== registration.center?.centerId)
    .map((c) => ({
      value: String(c.centerId),
      label: t('allocate.centerOption', { code: c.code, name: c.name, city: c.city, free: c.seats - c.allocated }),
      disabled: c.seats <= c.allocated,
    }));
  return (
    <Dialog
      title={move ? t('allocate.moveTitle', { name: registration.candidate.name }) : t('allocate.manualTitle', { name: registration.candidate.name })}
      description={move ? t('allocate.moveHint') : t('allocate.preferred', { city: registration.preferredCity })}
      onClose={onClose}
      busy={busy}
      testId="center-choice"
      onSubmit={(event) => {
        event.preventDefault();
        if (!centerId) return;
        setBusy(true);
        setFailure(null);
        (move ? registrationsApi.move(registration.registrationId, Number(centerId)) : registrationsApi.allocate(registration.registrationId, Number(centerId)))
          .then(
            (answer) => {
              registrationStore.trigger.update({ record: asRecord(answer.record) });
              onDone();
            },
            async (error: unknown) => setFailure(await failureText(error, t('action.failed'))),
          )
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy} disabled={!centerId} data-testid="center-choice-confirm">
            {move ? t('allocate.move') : t('allocate.allocate')}
          </Button>
        </>
      }
    >
      <SelectField
        label={t('allocate.center')}
        value={centerId}
        placeholder={t('centers.choose')}
        options={options}
        onValueChange={setCenterId}
        testId="center-choice-select"
      />
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })}>
          {failure}
        </p>
      ) : null}
    </Dialog>
  );
}

/** Bulk registration from .xlsx: template, upload (optionally approving), the jobs with counts and error files. */
function BulkDialog({ season, onClose, onDone }: { season: Season; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('seasons');
  const format = useFormat();
  const [files, setFiles] = useState<File[]>([]);
  const [approve, setApprove] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [jobs, setJobs] = useState<RegistrationUpload[]>([]);
  const load = useCallback(
    () =>
      registrationsApi.uploads(season.seasonId).then(
        (page) => setJobs(page.data),
        () => setJobs([]),
      ),
    [season.seasonId],
  );
  useEffect(() => void load(), [load]);
  const working = jobs.some((j) => j.state === 'queued' || j.state === 'running');
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => {
      void load().then(onDone);
    }, 2000);
    return () => clearInterval(timer);
  }, [working, load, onDone]);
  const columns: Column<RegistrationUpload>[] = [
    { key: 'file', header: t('bulk.file'), cell: (j) => j.fileName },
    { key: 'created', header: t('batches.created'), hideOnSmall: true, cell: (j) => format.dateTime(j.createdOn) },
    { key: 'state', header: t('batches.state'), cell: (j) => <span data-testid={`upload-state-${j.jobId}`}>{t(`jobState.${j.state}`)}</span> },
    { key: 'total', header: t('batches.total'), align: 'end', cell: (j) => j.totalRows },
    { key: 'createdCount', header: t('bulk.registered'), align: 'end', cell: (j) => <span data-testid={`upload-created-${j.jobId}`}>{j.createdCount}</span> },
    { key: 'failed', header: t('batches.failed'), align: 'end', cell: (j) => j.failedCount },
    {
      key: 'errors',
      header: <span className={css({ srOnly: true })}>{t('bulk.errorFile')}</span>,
      cell: (j) =>
        j.hasErrorFile ? (
          <DownloadButton
            size="sm"
            label={t('bulk.errorFile')}
            ariaLabel={t('bulk.errorFileOf', { name: j.fileName })}
            fallbackName="registration-errors.xlsx"
            fetchFile={(p) => registrationsApi.uploadErrors(j.jobId, p)}
          />
        ) : null,
    },
  ];
  return (
    <Dialog title={t('bulk.title', { season: season.name })} description={t('bulk.intro')} onClose={onClose} busy={busy} size="lg" testId="bulk-registration">
      <div className={css({ display: 'grid', gap: '3' })}>
        <div>
          <DownloadButton
            label={t('bulk.template')}
            fallbackName="registration-template.xlsx"
            fetchFile={(p) => registrationsApi.uploadTemplate(p)}
            variant="ghost"
          />
        </div>
        <FileUpload
          label={t('import.file')}
          hint={t('import.fileHint')}
          files={files}
          onChange={setFiles}
          maxFiles={1}
          maxBytes={5 * 1024 * 1024}
          accept={XLSX}
          disabled={busy}
        />
        <Checkbox checked={approve} onChange={setApprove} testId="bulk-approve">
          {t('bulk.approve')}
        </Checkbox>
        {failure ? (
          <p role="alert" className={css({ color: 'error.dark' })}>
            {failure}
          </p>
        ) : null}
        <div>
          <Button
            disabled={!files.length}
            loading={busy}
            data-testid="bulk-upload"
            onClick={() => {
              setBusy(true);
              setFailure(null);
              registrationsApi
                .bulkUpload(season.seasonId, approve, files[0])
                .then(
                  (answer) => {
                    void notify.success(t('bulk.queued', { name: answer.fileName }));
                    setFiles([]);
                    void load();
                  },
                  async (error: unknown) => setFailure(await failureText(error, t('action.failed'))),
                )
                .finally(() => setBusy(false));
            }}
          >
            {t('bulk.upload')}
          </Button>
        </div>
        {jobs.length ? <DataTable caption={t('bulk.jobs')} columns={columns} rows={jobs} rowKey={(j) => j.jobId} testId="bulk-jobs" /> : null}
      </div>
    </Dialog>
  );
}

/** The project's roll-number pattern (the default of new seasons). */
function RollPatternDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation('seasons');
  const [pattern, setPattern] = useState('');
  const [example, setExample] = useState('');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    seasonsApi.rollPattern().then(
      (answer) => {
        setPattern(answer.rollPattern);
        setExample(answer.example);
      },
      () => setFailure(t('action.failed')),
    );
  }, [t]);
  return (
    <Dialog
      title={t('roll.title')}
      description={t('roll.intro')}
      onClose={onClose}
      busy={busy}
      testId="roll-pattern"
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        setFailure(null);
        seasonsApi
          .setRollPattern(pattern.trim())
          .then(
            (answer) => {
              setExample(answer.example);
              void notify.success(t('roll.saved', { example: answer.example }));
              onClose();
            },
            async (error: unknown) => setFailure(await failureText(error, t('action.failed'))),
          )
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy}>
            {t('action.save')}
          </Button>
        </>
      }
    >
      <TextField
        label={t('season.rollPattern')}
        hint={t('season.rollPatternHint')}
        value={pattern}
        onChange={(e) => setPattern(e.target.value)}
        className={css({ fontFamily: 'mono' })}
      />
      {example ? <p className={css({ fontSize: 'sm' })}>{t('roll.example', { example })}</p> : null}
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })}>
          {failure}
        </p>
      ) : null}
    </Dialog>
  );
}

const openedSeason = (): { seasonId?: number } => {
  const id = selectedSeason()?.seasonId;
  return typeof id === 'number' ? { seasonId: id } : {};
};

type Open =
  | { kind: 'reject' | 'cancel'; registration: Registration }
  | { kind: 'allocate' | 'move'; registration: Registration }
  | { kind: 'bulk' }
  | { kind: 'roll' }
  | null;

/**
 * Registrations of the project (issue 18): the approval queue (approve, reject with a reason),
 * accommodations with their supporting document, allocation (automatic, manual, the whole
 * season), moving a candidate, admit cards, attendance; bulk registration and the roll pattern.
 */
function RegistrationsList() {
  const { t } = useTranslation('seasons');
  const languageName = useLanguageName();
  const [seasons, setSeasons] = useState<Season[]>([]);
  const search = usePagedSearch<Registration>(
    (query) => registrationsApi.search(query),
    // The season opened in the workspace bar is the queue's season until another is chosen (0236).
    { orderBy: ['createdOn asc'], filters: { status: 'Submitted', ...openedSeason() } },
    {
      seasonId: 'number',
      status: 'string',
      accommodationStatus: 'string',
    },
  );
  const errorText = useErrorText(search.error);
  const filters = search.query.filters as { seasonId?: number | null; status?: string | null; accommodationStatus?: string | null };
  const season = seasons.find((s) => s.seasonId === filters.seasonId) ?? null;
  const [centers, setCenters] = useState<SeasonCenter[]>([]);
  const [open, setOpen] = useState<Open>(null);
  const [allocating, setAllocating] = useState(false);
  const reload = useCallback(() => search.send({ type: 'search.reload' }), [search]);

  useEffect(() => {
    seasonsApi.all().then(
      (page) => setSeasons(page.data),
      () => setSeasons([]),
    );
  }, []);
  useEffect(() => {
    if (season) seasonsApi.centers(season.seasonId).then(setCenters, () => setCenters([]));
  }, [season]);

  const act = async (work: () => Promise<{ record: Registration } | Registration>, done: string) => {
    try {
      const answer = await work();
      registrationStore.trigger.update({ record: asRecord('record' in answer ? answer.record : answer) });
      void notify.success(done);
      reload();
    } catch (error) {
      registrationStore.trigger.failure();
      void notify.error(await failureText(error, t('action.failed')));
    }
  };
  const event = (r: Registration, name: RegistrationEventName) => () => registrationsApi.transition(r.registrationId, name, r.version);

  const actionsOf = (r: Registration): MenuAction[] => {
    const list: MenuAction[] = [];
    const name = r.candidate.name;
    if (r.actions.includes('registration.approve'))
      list.push({ id: 'approve', label: t('queue.approve'), onSelect: () => void act(event(r, 'registration.approve'), t('queue.approved', { name })) });
    if (r.actions.includes('registration.reject'))
      list.push({ id: 'reject', label: t('queue.reject'), tone: 'danger', onSelect: () => setOpen({ kind: 'reject', registration: r }) });
    if (r.accommodationStatus === 'requested') {
      list.push({
        id: 'acc-approve',
        label: t('queue.accommodationsApprove'),
        onSelect: () => void act(() => registrationsApi.accommodations(r.registrationId, 'approved'), t('queue.accommodationsDone', { name })),
      });
      list.push({
        id: 'acc-reject',
        label: t('queue.accommodationsReject'),
        onSelect: () => void act(() => registrationsApi.accommodations(r.registrationId, 'rejected'), t('queue.accommodationsDone', { name })),
      });
    }
    if (r.document)
      list.push({
        id: 'document',
        label: t('queue.document'),
        onSelect: () =>
          void registrationsApi.document(r.registrationId).then(
            ({ blob, filename }) => saveFile(blob, filename ?? r.document!.fileName),
            async (error: unknown) => void notify.error(await failureText(error, t('action.failed'))),
          ),
      });
    if (r.actions.includes('registration.allocate')) {
      list.push({
        id: 'allocate',
        label: t('queue.allocateAuto'),
        onSelect: () => void act(() => registrationsApi.allocate(r.registrationId), t('queue.allocated', { name })),
      });
      list.push({ id: 'allocate-manual', label: t('queue.allocateManual'), onSelect: () => setOpen({ kind: 'allocate', registration: r }) });
    }
    if (r.actions.includes('registration.move')) list.push({ id: 'move', label: t('queue.move'), onSelect: () => setOpen({ kind: 'move', registration: r }) });
    if (r.actions.includes('registration.issueAdmitCard'))
      list.push({ id: 'issue', label: t('queue.issue'), onSelect: () => void act(event(r, 'registration.issueAdmitCard'), t('queue.issued', { name })) });
    if (r.status === 'AdmitCardIssued')
      list.push({
        id: 'card',
        label: t('queue.admitCard'),
        onSelect: () =>
          void registrationsApi.staffAdmitCardPdf(r.registrationId).then(
            ({ blob, filename }) => saveFile(blob, filename ?? `admit-card-${r.rollNumber}.pdf`),
            async (error: unknown) => void notify.error(await failureText(error, t('action.failed'))),
          ),
      });
    if (r.actions.includes('registration.markAttended'))
      list.push({ id: 'attended', label: t('queue.attended'), onSelect: () => void act(event(r, 'registration.markAttended'), t('queue.marked', { name })) });
    if (r.actions.includes('registration.markAbsent'))
      list.push({ id: 'absent', label: t('queue.absent'), onSelect: () => void act(event(r, 'registration.markAbsent'), t('queue.marked', { name })) });
    if (r.actions.includes('registration.cancel'))
      list.push({ id: 'cancel', label: t('queue.cancel'), tone: 'danger', onSelect: () => setOpen({ kind: 'cancel', registration: r }) });
    return list;
  };

  const accommodationText = (r: Registration) => {
    const a = r.accommodations;
    const parts = [
      a.extraTimePercent ? t('acc.extraTimeShort', { percent: a.extraTimePercent }) : '',
      a.scribe ? t('acc.scribe') : '',
      a.largePrint ? t('acc.largePrint') : '',
    ].filter(Boolean);
    return parts.join(', ');
  };
  const columns: Column<Registration>[] = [
    {
      key: 'candidate',
      header: t('queue.candidate'),
      sortKey: 'name',
      cell: (r) => (
        <span>
          <span className={css({ fontWeight: 'semibold', display: 'block' })}>{r.candidate.name}</span>
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{r.candidate.email}</span>
        </span>
      ),
    },
    { key: 'exam', header: t('queue.exam'), hideOnSmall: true, cell: (r) => `${r.examName} · ${r.papers.map((p) => p.paperCode).join(', ')}` },
    { key: 'medium', header: t('register.medium'), hideOnSmall: true, cell: (r) => languageName(r.medium) },
    { key: 'city', header: t('register.city'), cell: (r) => r.preferredCity },
    {
      key: 'acc',
      header: t('queue.accommodations'),
      cell: (r) =>
        r.accommodationStatus === 'none' ? (
          '—'
        ) : (
          <span>
            {accommodationText(r)}{' '}
            <Badge tone={r.accommodationStatus === 'approved' ? 'success' : r.accommodationStatus === 'rejected' ? 'error' : 'warning'}>
              {t(`accStatus.${r.accommodationStatus}`)}
            </Badge>
          </span>
        ),
    },
    { key: 'center', header: t('queue.center'), cell: (r) => (r.center ? `${r.center.code} · ${r.rollNumber ?? ''}` : '—') },
    {
      key: 'status',
      header: t('season.status'),
      sortKey: 'status',
      cell: (r) => (
        <Badge tone={registrationTone[r.status]} testId={`registration-status-${r.registrationId}`}>
          {t(`regStatus.${r.status}`)}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: <span className={css({ srOnly: true })}>{t('field.actions')}</span>,
      align: 'end',
      cell: (r) => (
        <RowMenu label={t('queue.actionsOf', { name: r.candidate.name })} actions={actionsOf(r)} testId={`registration-actions-${r.registrationId}`} />
      ),
    },
  ];

  const setFilter = (name: string, value: string | number | null) => search.send({ type: 'search.filter', filters: { [name]: value } });
  return (
    <section aria-labelledby="registrations-title">
      <PageHeader
        id="registrations-title"
        title={t('queue.title')}
        description={t('queue.intro')}
        actions={
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
            <Button variant="ghost" onClick={() => setOpen({ kind: 'roll' })} data-testid="roll-pattern-open">
              {t('roll.title')}
            </Button>
            <Button variant="outline" disabled={!season} onClick={() => setOpen({ kind: 'bulk' })} data-testid="bulk-open">
              {t('bulk.open')}
            </Button>
            <Button
              disabled={!season}
              loading={allocating}
              data-testid="allocate-all"
              onClick={() => {
                if (!season) return;
                setAllocating(true);
                seasonsApi
                  .allocateAll(season.seasonId)
                  .then(
                    (answer) => {
                      void notify.success(t('queue.allocatedAll', { allocated: answer.allocated, unplaced: answer.unplaced }));
                      reload();
                    },
                    async (error: unknown) => void notify.error(await failureText(error, t('action.failed'))),
                  )
                  .finally(() => setAllocating(false));
              }}
            >
              {t('queue.allocateAll')}
            </Button>
          </div>
        }
      />
      <div className={card}>
        <div
          role="search"
          aria-label={t('queue.filters')}
          className={css({ display: 'grid', gap: '3', p: '4', gridTemplateColumns: { base: '1fr', md: '2fr 1fr 1fr' }, alignItems: 'end' })}
        >
          <SearchInput
            label={t('queue.search')}
            value={search.query.keyword}
            onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })}
          />
          <SelectField
            label={t('queue.season')}
            value={filters.seasonId ? String(filters.seasonId) : ''}
            placeholder={t('filter.any')}
            options={seasons.map((s) => ({ value: String(s.seasonId), label: s.name }))}
            onValueChange={(v) => {
              const chosen = seasons.find((s) => String(s.seasonId) === v);
              if (chosen) updateSeason(asRecord(chosen));
              setFilter('seasonId', v ? Number(v) : null);
            }}
            testId="queue-season"
          />
          <FilterFold active={[filters.status, filters.accommodationStatus].filter(Boolean).length}>
            <SelectField
              label={t('season.status')}
              value={filters.status ?? ''}
              placeholder={t('filter.any')}
              options={registrationStatusNames.map((s) => ({ value: s, label: t(`regStatus.${s}`) }))}
              onValueChange={(v) => setFilter('status', v)}
              testId="queue-status"
            />
            <SelectField
              label={t('queue.accommodations')}
              value={filters.accommodationStatus ?? ''}
              placeholder={t('filter.any')}
              options={(['none', 'requested', 'approved', 'rejected'] as const).map((s) => ({ value: s, label: t(`accStatus.${s}`) }))}
              onValueChange={(v) => setFilter('accommodationStatus', v)}
              testId="queue-accommodations"
            />
          </FilterFold>
        </div>
        <PagedTable
          search={search}
          errorText={errorText}
          empty={<EmptyState title={t('queue.empty')}>{t('queue.emptyHint')}</EmptyState>}
          caption={t('queue.caption')}
          columns={columns}
          rowKey={(r) => r.registrationId}
          testId="registrations-table"
        />
      </div>
      {open?.kind === 'reject' || open?.kind === 'cancel' ? (
        <ReasonDialog
          title={
            open.kind === 'reject'
              ? t('queue.rejectTitle', { name: open.registration.candidate.name })
              : t('queue.cancelTitle', { name: open.registration.candidate.name })
          }
          label={t('queue.reason')}
          confirmLabel={open.kind === 'reject' ? t('queue.reject') : t('queue.cancel')}
          onClose={() => setOpen(null)}
          onSubmit={async (reason) => {
            const answer = await registrationsApi.transition(
              open.registration.registrationId,
              open.kind === 'reject' ? 'registration.reject' : 'registration.cancel',
              open.registration.version,
              reason,
            );
            registrationStore.trigger.update({ record: asRecord(answer.record) });
            void notify.success(t('queue.done'));
            reload();
          }}
        />
      ) : null}
      {open?.kind === 'allocate' || open?.kind === 'move' ? (
        <CenterDialog
          registration={open.registration}
          centers={centers}
          move={open.kind === 'move'}
          onClose={() => setOpen(null)}
          onDone={() => {
            setOpen(null);
            void notify.success(t('queue.done'));
            reload();
          }}
        />
      ) : null}
      {open?.kind === 'bulk' && season ? <BulkDialog season={season} onClose={() => setOpen(null)} onDone={reload} /> : null}
      {open?.kind === 'roll' ? <RollPatternDialog onClose={() => setOpen(null)} /> : null}
    </section>
  );
}

function RegistrationsPage() {
  const workspace = useItemWorkspace();
  if (!workspace.project) return <NoProjectState />;
  return <RegistrationsList key={String(workspace.projectId)} />;
}

export default function GatedRegistrationsPage() {
  return (
    <PermissionGate permission={P.Exams.View}>
      <RegistrationsPage />
    </PermissionGate>
  );
}
