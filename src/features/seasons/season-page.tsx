import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { examStore, seasonCenterStore, seasonPaperStore, seasonSectionStore, seasonSetStore } from '#src/app/stores/slices.ts';
import { seasonFailed, updateSeason } from '#src/app/stores/workspace-selection.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Checkbox } from '#src/components/ui/checkbox.tsx';
import { DataTable, type Column } from '#src/components/ui/data-table.tsx';
import { DateField } from '#src/components/ui/date-field.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { ChoiceGroup } from '#src/components/ui/radio-group.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState, ErrorState, LoadingState } from '#src/components/ui/states.tsx';
import { Tabs } from '#src/components/ui/tabs.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { useStoreValue } from '#src/lib/use-store-value.ts';
import { papersApi, type PaperRecord } from '#src/features/papers/index.ts';
import { NoProjectState } from '#src/features/projects/index.ts';
import { useItemWorkspace } from '#src/features/items/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import {
  centersApi,
  seasonsApi,
  type AdmitBatch,
  type Center,
  type Clash,
  type PaperMode,
  type Schedule,
  type Season,
  type SeasonCenter,
  type SeasonPaper,
  type SetAssignment,
} from './api/seasons-api.ts';
import { ReasonDialog } from './components/reason-dialog.tsx';
import { failureText } from './lib/call-failure.ts';
import { SeasonDialog, seasonTone } from './seasons-page.tsx';

const tabs = ['schedule', 'sets', 'sections', 'centers', 'admitCards'] as const;
type Tab = (typeof tabs)[number];
const asRecord = (value: object) => value as unknown as Record<string, unknown>;
const HHMM = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;

/** Schedule a paper, or change a scheduled one: date, start, duration, mode, how sets are given, candidate group. */
function SeasonPaperDialog({
  season,
  paper,
  papers,
  onClose,
  onSaved,
}: {
  season: Season;
  paper: SeasonPaper | null;
  papers: PaperRecord[];
  onClose: () => void;
  onSaved: (clashes: Clash[]) => void;
}) {
  const { t } = useTranslation('seasons');
  const [paperId, setPaperId] = useState(paper ? String(paper.paperId) : '');
  const [sitsOn, setSitsOn] = useState(paper?.sitsOn ?? season.startsOn);
  const [startsAt, setStartsAt] = useState(paper?.startsAt ?? '10:00');
  const [duration, setDuration] = useState(paper ? String(paper.durationMinutes) : '');
  const [mode, setMode] = useState<PaperMode | ''>(paper?.mode ?? '');
  const [assignment, setAssignment] = useState<SetAssignment>(paper?.setAssignment ?? 'randomPerCandidate');
  const [group, setGroup] = useState(paper?.candidateGroup ?? '');
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const durationNumber = Number(duration);
  const errors = {
    paper: paperId ? null : t('schedule.paperRequired'),
    startsAt: HHMM.test(startsAt) ? null : t('schedule.startInvalid'),
    duration: duration === '' || (Number.isInteger(durationNumber) && durationNumber >= 1 && durationNumber <= 1440) ? null : t('schedule.durationInvalid'),
  };
  const valid = Object.values(errors).every((e) => e === null);
  const show = (error: string | null) => (shown && error ? error : undefined);
  return (
    <Dialog
      title={paper ? t('schedule.editTitle', { code: paper.paperCode }) : t('schedule.addTitle')}
      onClose={onClose}
      busy={busy}
      size="lg"
      testId="season-paper-form"
      onSubmit={(event) => {
        event.preventDefault();
        setShown(true);
        if (!valid) return;
        setBusy(true);
        setFailure(null);
        const body = {
          sitsOn,
          startsAt,
          ...(duration ? { durationMinutes: durationNumber } : {}),
          ...(mode ? { mode } : {}),
          setAssignment: assignment,
          candidateGroup: group.trim() || null,
        };
        (paper
          ? seasonsApi.editPaper(season.seasonId, paper.seasonPaperId, { ...body, version: paper.version })
          : seasonsApi.addPaper(season.seasonId, { ...body, paperId: Number(paperId) })
        )
          .then(
            (answer) => {
              seasonPaperStore.trigger.update({ record: asRecord(answer.record) });
              onSaved(answer.clashes);
            },
            async (error: unknown) => {
              seasonPaperStore.trigger.failure();
              setFailure(await failureText(error, t('schedule.failed')));
            },
          )
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="season-paper-save">
            {t('action.save')}
          </Button>
        </>
      }
    >
      {paper ? null : (
        <SelectField
          label={t('schedule.paper')}
          value={paperId}
          placeholder={t('schedule.choosePaper')}
          options={papers.map((p) => ({ value: String(p.paperId), label: `${p.code} · ${p.title}` }))}
          onValueChange={setPaperId}
          error={show(errors.paper)}
          required
          testId="season-paper-paper"
        />
      )}
      <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: '1fr 1fr' } })}>
        <DateField label={t('schedule.date')} value={sitsOn} onChange={setSitsOn} />
        <TextField
          label={t('schedule.start')}
          type="time"
          value={startsAt}
          onChange={(e) => setStartsAt(e.target.value)}
          error={show(errors.startsAt)}
          required
        />
        <TextField
          label={t('schedule.duration')}
          hint={t('schedule.durationHint')}
          inputMode="numeric"
          value={duration}
          onChange={(e) => setDuration(e.target.value)}
          error={show(errors.duration)}
        />
        <TextField label={t('schedule.group')} hint={t('schedule.groupHint')} value={group} onChange={(e) => setGroup(e.target.value)} maxLength={60} />
      </div>
      <ChoiceGroup
        title={t('schedule.mode')}
        name="season-paper-mode"
        value={mode || 'paper'}
        onChange={(v) => setMode(v === 'paper' ? '' : (v as PaperMode))}
        columns={3}
        options={[
          { value: 'paper', label: t('schedule.modeOfPaper') },
          { value: 'online', label: t('mode.online') },
          { value: 'offline', label: t('mode.offline') },
        ]}
      />
      <ChoiceGroup
        title={t('sets.assignment')}
        name="season-paper-assignment"
        value={assignment}
        onChange={setAssignment}
        options={[
          { value: 'randomPerCandidate', label: t('sets.randomPerCandidate') },
          { value: 'perCenter', label: t('sets.perCenter') },
        ]}
      />
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })}>
          {failure}
        </p>
      ) : null}
    </Dialog>
  );
}

function Clashes({ clashes, schedule }: { clashes: Clash[]; schedule: Schedule }) {
  const { t } = useTranslation('seasons');
  if (!clashes.length) return null;
  const code = (id: number) => schedule.papers.find((p) => p.seasonPaperId === id)?.paperCode ?? String(id);
  return (
    <div
      role="alert"
      data-testid="schedule-clashes"
      className={css({ borderWidth: '1px', borderColor: 'warning.main', bg: 'warning.lighter', borderRadius: 'md', p: '3', mb: '3' })}
    >
      <p className={css({ fontWeight: 'semibold' })}>{t('schedule.clashesTitle', { count: clashes.length })}</p>
      <ul className={css({ listStyle: 'disc', ps: '5', fontSize: 'sm' })}>
        {clashes.map((c) => (
          <li key={c.seasonPaperIds.join('-')}>
            {t('schedule.clash', { group: c.candidateGroup, date: c.sitsOn, a: code(c.seasonPaperIds[0]), b: code(c.seasonPaperIds[1]) })}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ScheduleTab({ season, schedule, reload }: { season: Season; schedule: Schedule; reload: () => void }) {
  const { t } = useTranslation('seasons');
  const format = useFormat();
  const exam = useStoreValue(examStore, (s) => s.context.selected);
  const [papers, setPapers] = useState<PaperRecord[]>([]);
  const [open, setOpen] = useState<{ paper: SeasonPaper | null } | null>(null);
  useEffect(() => {
    if (!exam) return;
    papersApi.list().then(setPapers, () => setPapers([]));
  }, [exam]);
  const unscheduled = papers.filter((p) => !schedule.papers.some((s) => s.paperId === p.paperId));
  const columns: Column<SeasonPaper>[] = [
    { key: 'date', header: t('schedule.date'), cell: (p) => format.date(`${p.sitsOn}T12:00:00`) },
    { key: 'time', header: t('schedule.time'), cell: (p) => t('schedule.timeRange', { from: p.startsAt, to: p.endsAt }) },
    {
      key: 'paper',
      header: t('schedule.paper'),
      cell: (p) => (
        <span>
          <span className={css({ fontFamily: 'mono', fontWeight: 'semibold' })}>{p.paperCode}</span> {p.paperTitle}
          <span className={css({ display: 'block', fontSize: 'xs', color: 'fg.muted' })}>{p.examName}</span>
        </span>
      ),
    },
    { key: 'duration', header: t('schedule.duration'), align: 'end', cell: (p) => t('schedule.minutes', { count: p.durationMinutes }) },
    { key: 'mode', header: t('schedule.mode'), cell: (p) => t(`mode.${p.mode}`) },
    { key: 'group', header: t('schedule.group'), hideOnSmall: true, cell: (p) => p.candidateGroup },
    {
      key: 'actions',
      header: <span className={css({ srOnly: true })}>{t('field.actions')}</span>,
      align: 'end',
      cell: (p) =>
        season.canConfigure ? (
          <span className={css({ display: 'inline-flex', gap: '1' })}>
            <Button
              size="sm"
              variant="ghost"
              aria-label={t('schedule.editOf', { code: p.paperCode })}
              onClick={() => {
                seasonPaperStore.trigger.select({ record: asRecord(p) });
                setOpen({ paper: p });
              }}
            >
              {t('action.edit')}
            </Button>
            {season.status === 'Planned' ? (
              <Button
                size="sm"
                variant="ghost"
                aria-label={t('schedule.removeOf', { code: p.paperCode })}
                onClick={() =>
                  seasonsApi.removePaper(season.seasonId, p.seasonPaperId).then(
                    () => {
                      seasonPaperStore.trigger.remove();
                      reload();
                    },
                    async (error: unknown) => void notify.error(await failureText(error, t('action.failed'))),
                  )
                }
              >
                {t('action.remove')}
              </Button>
            ) : null}
          </span>
        ) : null,
    },
  ];
  return (
    <div className={css({ display: 'grid', gap: '3' })}>
      <Clashes clashes={schedule.clashes} schedule={schedule} />
      {season.canConfigure ? (
        <div className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
          <Button onClick={() => setOpen({ paper: null })} disabled={!unscheduled.length} data-testid="schedule-add">
            {t('schedule.add')}
          </Button>
          <span className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            {exam ? t('schedule.fromExam', { exam: String(exam.name ?? '') }) : t('schedule.chooseExam')}
          </span>
        </div>
      ) : null}
      {schedule.papers.length ? (
        <DataTable caption={t('schedule.caption')} columns={columns} rows={schedule.papers} rowKey={(p) => p.seasonPaperId} testId="schedule-table" />
      ) : (
        <EmptyState title={t('schedule.empty')}>{t('schedule.emptyHint')}</EmptyState>
      )}
      {open ? (
        <SeasonPaperDialog
          season={season}
          paper={open.paper}
          papers={unscheduled}
          onClose={() => setOpen(null)}
          onSaved={(clashes) => {
            setOpen(null);
            if (clashes.length) void notify.info(t('schedule.savedWithClash', { count: clashes.length }));
            else void notify.success(t('schedule.saved'));
            reload();
          }}
        />
      ) : null}
    </div>
  );
}

/** Which of each paper's sets are live in this sitting, and how candidates get one. */
function SetsTab({ season, schedule, reload }: { season: Season; schedule: Schedule; reload: () => void }) {
  const { t } = useTranslation('seasons');
  const [chosen, setChosen] = useState<Record<number, string[]>>(() => Object.fromEntries(schedule.papers.map((p) => [p.seasonPaperId, p.liveSets])));
  const [busy, setBusy] = useState<number | null>(null);
  if (!schedule.papers.length) return <EmptyState title={t('schedule.empty')}>{t('sets.emptyHint')}</EmptyState>;
  const save = async (p: SeasonPaper, assignment: SetAssignment | null) => {
    setBusy(p.seasonPaperId);
    try {
      let record = p;
      if (assignment && assignment !== p.setAssignment)
        record = (await seasonsApi.editPaper(season.seasonId, p.seasonPaperId, { setAssignment: assignment, version: p.version })).record;
      else record = (await seasonsApi.liveSets(season.seasonId, p.seasonPaperId, chosen[p.seasonPaperId] ?? [], p.version)).record;
      seasonSetStore.trigger.update({ record: { seasonPaperId: record.seasonPaperId, letters: record.liveSets, setAssignment: record.setAssignment } });
      void notify.success(t('sets.saved', { code: p.paperCode }));
      reload();
    } catch (error) {
      seasonSetStore.trigger.failure();
      void notify.error(await failureText(error, t('action.failed')));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      {schedule.papers.map((p) => (
        <fieldset
          key={p.seasonPaperId}
          className={css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'md', p: '3', display: 'grid', gap: '3' })}
          data-testid={`sets-${p.paperCode}`}
        >
          <legend className={css({ fontWeight: 'semibold', px: '1' })}>{t('sets.of', { code: p.paperCode, title: p.paperTitle })}</legend>
          {p.availableSets.length ? (
            <div className={css({ display: 'flex', gap: '4', flexWrap: 'wrap' })}>
              {p.availableSets.map((letter) => (
                <Checkbox
                  key={letter}
                  checked={(chosen[p.seasonPaperId] ?? []).includes(letter)}
                  disabled={!season.canConfigure}
                  onChange={(on) =>
                    setChosen((c) => ({
                      ...c,
                      [p.seasonPaperId]: on ? [...(c[p.seasonPaperId] ?? []), letter].sort() : (c[p.seasonPaperId] ?? []).filter((l) => l !== letter),
                    }))
                  }
                  testId={`set-${p.paperCode}-${letter}`}
                >
                  {t('sets.set', { letter })}
                </Checkbox>
              ))}
            </div>
          ) : (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('sets.none')}</p>
          )}
          <ChoiceGroup
            title={t('sets.assignment')}
            name={`assignment-${p.seasonPaperId}`}
            value={p.setAssignment}
            onChange={(v) => (season.canConfigure ? void save(p, v) : undefined)}
            options={[
              { value: 'randomPerCandidate', label: t('sets.randomPerCandidate') },
              { value: 'perCenter', label: t('sets.perCenter') },
            ]}
          />
          {season.canConfigure && p.availableSets.length ? (
            <div>
              <Button size="sm" loading={busy === p.seasonPaperId} onClick={() => void save(p, null)} data-testid={`sets-save-${p.paperCode}`}>
                {t('sets.save')}
              </Button>
            </div>
          ) : null}
        </fieldset>
      ))}
    </div>
  );
}

/** Per-section settings of the sitting: a time limit and a note for invigilators. */
function SectionsTab({ season, schedule, reload }: { season: Season; schedule: Schedule; reload: () => void }) {
  const { t } = useTranslation('seasons');
  const [values, setValues] = useState<Record<string, { limit: string; note: string }>>(() =>
    Object.fromEntries(
      schedule.papers.flatMap((p) =>
        p.sections.map((s) => [`${p.seasonPaperId}:${s.sectionId}`, { limit: s.timeLimitMinutes === null ? '' : String(s.timeLimitMinutes), note: s.note }]),
      ),
    ),
  );
  const [busy, setBusy] = useState<number | null>(null);
  if (!schedule.papers.length) return <EmptyState title={t('schedule.empty')}>{t('sections.emptyHint')}</EmptyState>;
  const save = async (p: SeasonPaper) => {
    setBusy(p.seasonPaperId);
    try {
      const sections = p.sections.map((s) => {
        const v = values[`${p.seasonPaperId}:${s.sectionId}`];
        return { sectionId: s.sectionId, timeLimitMinutes: v?.limit ? Number(v.limit) : null, note: v?.note ?? '' };
      });
      const answer = await seasonsApi.sections(season.seasonId, p.seasonPaperId, sections, p.version);
      seasonSectionStore.trigger.update({ record: { seasonPaperId: answer.record.seasonPaperId, sections: answer.record.sections } });
      void notify.success(t('sections.saved', { code: p.paperCode }));
      reload();
    } catch (error) {
      seasonSectionStore.trigger.failure();
      void notify.error(await failureText(error, t('action.failed')));
    } finally {
      setBusy(null);
    }
  };
  return (
    <div className={css({ display: 'grid', gap: '4' })}>
      {schedule.papers.map((p) => (
        <fieldset key={p.seasonPaperId} className={css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'md', p: '3', display: 'grid', gap: '3' })}>
          <legend className={css({ fontWeight: 'semibold', px: '1' })}>{t('sections.of', { code: p.paperCode, minutes: p.durationMinutes })}</legend>
          {p.sections.length ? (
            p.sections.map((s) => {
              const key = `${p.seasonPaperId}:${s.sectionId}`;
              const v = values[key] ?? { limit: '', note: '' };
              return (
                <div
                  key={s.sectionId}
                  className={css({ display: 'grid', gap: '2', gridTemplateColumns: { base: '1fr', md: '1fr 10rem 2fr' }, alignItems: 'end' })}
                >
                  <p className={css({ fontWeight: 'medium' })}>{s.title}</p>
                  <TextField
                    label={t('sections.limit')}
                    hint={s.paperTimeLimitMinutes ? t('sections.paperLimit', { count: s.paperTimeLimitMinutes }) : undefined}
                    inputMode="numeric"
                    value={v.limit}
                    disabled={!season.canConfigure}
                    onChange={(e) => setValues((all) => ({ ...all, [key]: { ...v, limit: e.target.value.replace(/\D/g, '') } }))}
                  />
                  <TextField
                    label={t('sections.note')}
                    value={v.note}
                    maxLength={1000}
                    disabled={!season.canConfigure}
                    onChange={(e) => setValues((all) => ({ ...all, [key]: { ...v, note: e.target.value } }))}
                  />
                </div>
              );
            })
          ) : (
            <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>{t('sections.none')}</p>
          )}
          {season.canConfigure && p.sections.length ? (
            <div>
              <Button size="sm" loading={busy === p.seasonPaperId} onClick={() => void save(p)}>
                {t('sections.save')}
              </Button>
            </div>
          ) : null}
        </fieldset>
      ))}
    </div>
  );
}

/** The centers hosting the season with their seats; add a center, change seats, take one out. */
function CentersTab({ season, reloadSeason }: { season: Season; reloadSeason: () => void }) {
  const { t } = useTranslation('seasons');
  const [rows, setRows] = useState<SeasonCenter[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [all, setAll] = useState<Center[]>([]);
  const [adding, setAdding] = useState({ centerId: '', seats: '' });
  const [seats, setSeats] = useState<Record<number, string>>({});
  const errorText = useErrorText(error);
  const load = useCallback(() => {
    setError(null);
    seasonsApi.centers(season.seasonId).then(
      (list) => {
        setRows(list);
        setSeats(Object.fromEntries(list.map((c) => [c.centerId, String(c.seats)])));
      },
      (failure: unknown) => setError(failure ?? new Error('failed')),
    );
  }, [season.seasonId]);
  useEffect(() => {
    load();
    centersApi.active().then(
      (page) => setAll(page.data),
      () => setAll([]),
    );
  }, [load]);
  const give = async (centerId: number, value: string, version?: number) => {
    try {
      const saved = await seasonsApi.giveSeats(season.seasonId, centerId, Number(value), version);
      seasonCenterStore.trigger.update({ record: asRecord(saved) });
      void notify.success(t('centers.seatsSaved', { name: saved.name, seats: saved.seats }));
      setAdding({ centerId: '', seats: '' });
      load();
      reloadSeason();
    } catch (failure) {
      seasonCenterStore.trigger.failure();
      void notify.error(await failureText(failure, t('action.failed')));
    }
  };
  if (error) return <ErrorState message={errorText} onRetry={load} />;
  if (!rows) return <LoadingState />;
  const free = all.filter((c) => !rows.some((r) => r.centerId === c.centerId));
  const chosen = all.find((c) => String(c.centerId) === adding.centerId);
  const columns: Column<SeasonCenter>[] = [
    {
      key: 'center',
      header: t('center.name'),
      cell: (c) => (
        <span>
          <span className={css({ fontWeight: 'semibold', display: 'block' })}>
            {c.code} · {c.name}
          </span>
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{c.city}</span>
        </span>
      ),
    },
    { key: 'capacity', header: t('center.capacity'), align: 'end', cell: (c) => c.capacity },
    { key: 'cbt', header: t('center.cbt'), cell: (c) => (c.cbtCapable ? t('center.cbtYes') : t('center.cbtNo')) },
    { key: 'taken', header: t('centers.taken'), align: 'end', cell: (c) => t('season.seatsTaken', { allocated: c.allocated, seats: c.seats }) },
    {
      key: 'seats',
      header: t('centers.seats'),
      cell: (c) =>
        season.canConfigure ? (
          <span className={css({ display: 'inline-flex', gap: '2', alignItems: 'end' })}>
            <TextField
              label={t('centers.seatsOf', { name: c.name })}
              className={css({ '& label': { srOnly: true }, width: '7rem' })}
              inputMode="numeric"
              value={seats[c.centerId] ?? ''}
              onChange={(e) => setSeats((s) => ({ ...s, [c.centerId]: e.target.value.replace(/\D/g, '') }))}
            />
            <Button
              size="sm"
              variant="outline"
              onClick={() => void give(c.centerId, seats[c.centerId] ?? '0', c.version)}
              aria-label={t('centers.saveSeatsOf', { name: c.name })}
            >
              {t('action.save')}
            </Button>
            {c.allocated === 0 ? (
              <Button
                size="sm"
                variant="ghost"
                aria-label={t('centers.removeOf', { name: c.name })}
                onClick={() =>
                  seasonsApi.removeCenter(season.seasonId, c.centerId).then(
                    () => {
                      seasonCenterStore.trigger.remove();
                      load();
                      reloadSeason();
                    },
                    async (failure: unknown) => void notify.error(await failureText(failure, t('action.failed'))),
                  )
                }
              >
                {t('action.remove')}
              </Button>
            ) : null}
          </span>
        ) : (
          c.seats
        ),
    },
  ];
  return (
    <div className={css({ display: 'grid', gap: '3' })}>
      {season.canConfigure ? (
        <form
          className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', md: '2fr 1fr auto' }, alignItems: 'end' })}
          onSubmit={(event) => {
            event.preventDefault();
            if (adding.centerId && adding.seats) void give(Number(adding.centerId), adding.seats);
          }}
        >
          <SelectField
            label={t('centers.add')}
            value={adding.centerId}
            placeholder={t('centers.choose')}
            options={free.map((c) => ({ value: String(c.centerId), label: `${c.code} · ${c.name} (${c.city})` }))}
            onValueChange={(v) => setAdding((a) => ({ ...a, centerId: v }))}
            testId="season-center-choose"
          />
          <TextField
            label={t('centers.seats')}
            hint={chosen ? t('centers.capacityHint', { capacity: chosen.capacity }) : undefined}
            inputMode="numeric"
            value={adding.seats}
            onChange={(e) => setAdding((a) => ({ ...a, seats: e.target.value.replace(/\D/g, '') }))}
            data-testid="season-center-seats"
          />
          <Button type="submit" disabled={!adding.centerId || !adding.seats} data-testid="season-center-add">
            {t('centers.give')}
          </Button>
        </form>
      ) : null}
      {rows.length ? (
        <DataTable caption={t('centers.caption')} columns={columns} rows={rows} rowKey={(c) => c.centerId} testId="season-centers-table" />
      ) : (
        <EmptyState title={t('centers.none')}>{t('centers.noneHint')}</EmptyState>
      )}
    </div>
  );
}

/** Issue the admit cards of the season in a batch job; the batches with their counts and rate. */
function AdmitCardsTab({ season }: { season: Season }) {
  const { t } = useTranslation('seasons');
  const format = useFormat();
  const [batches, setBatches] = useState<AdmitBatch[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const errorText = useErrorText(error);
  const load = useCallback(() => {
    setError(null);
    seasonsApi.batches(season.seasonId).then(setBatches, (failure: unknown) => setError(failure ?? new Error('failed')));
  }, [season.seasonId]);
  useEffect(() => load(), [load]);
  const working = Boolean(batches?.some((b) => b.state === 'queued' || b.state === 'running'));
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(load, 2000);
    return () => clearInterval(timer);
  }, [working, load]);
  const columns: Column<AdmitBatch>[] = [
    { key: 'created', header: t('batches.created'), cell: (b) => format.dateTime(b.createdOn) },
    {
      key: 'state',
      header: t('batches.state'),
      cell: (b) => <Badge tone={b.state === 'finished' ? 'success' : b.state === 'failed' ? 'error' : 'info'}>{t(`jobState.${b.state}`)}</Badge>,
    },
    { key: 'total', header: t('batches.total'), align: 'end', cell: (b) => b.total },
    { key: 'issued', header: t('batches.issued'), align: 'end', cell: (b) => <span data-testid="batch-issued">{b.issued}</span> },
    { key: 'failed', header: t('batches.failed'), align: 'end', cell: (b) => b.failed },
    {
      key: 'rate',
      header: t('batches.rate'),
      align: 'end',
      cell: (b) => (b.cardsPerSecond === null ? '—' : t('batches.perSecond', { rate: format.number(b.cardsPerSecond) })),
    },
  ];
  return (
    <div className={css({ display: 'grid', gap: '3' })}>
      <p className={css({ fontSize: 'sm' })}>{t('batches.intro')}</p>
      <div>
        <Button
          loading={busy}
          disabled={season.status === 'Completed'}
          data-testid="issue-admit-cards"
          onClick={() => {
            setBusy(true);
            seasonsApi
              .issueAdmitCards(season.seasonId)
              .then(
                (batch) => {
                  void notify.success(t('batches.queued', { count: batch.total }));
                  load();
                },
                async (failure: unknown) => void notify.error(await failureText(failure, t('action.failed'))),
              )
              .finally(() => setBusy(false));
          }}
        >
          {t('batches.issue')}
        </Button>
      </div>
      {error ? (
        <ErrorState message={errorText} onRetry={load} />
      ) : !batches ? (
        <LoadingState />
      ) : batches.length ? (
        <DataTable caption={t('batches.caption')} columns={columns} rows={batches} rowKey={(b) => b.batchId} testId="batches-table" />
      ) : (
        <EmptyState title={t('batches.none')} />
      )}
    </div>
  );
}

function SeasonDetail({ seasonId }: { seasonId: number }) {
  const { t } = useTranslation('seasons');
  const format = useFormat();
  const [params, setParams] = useSearchParams();
  const tab = (tabs as readonly string[]).includes(params.get('tab') ?? '') ? (params.get('tab') as Tab) : 'schedule';
  const [season, setSeason] = useState<Season | null>(null);
  const [schedule, setSchedule] = useState<Schedule | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [open, setOpen] = useState<'edit' | 'reopen' | null>(null);
  const errorText = useErrorText(error);
  const load = useCallback(() => {
    setError(null);
    Promise.all([seasonsApi.get(seasonId), seasonsApi.schedule(seasonId)]).then(
      ([s, sch]) => {
        // Spec §4: the selected season is stored on update and cleared on failure.
        updateSeason(asRecord(s));
        setSeason(s);
        setSchedule(sch);
      },
      (failure: unknown) => {
        seasonFailed();
        setError(failure ?? new Error('failed'));
      },
    );
  }, [seasonId]);
  useEffect(() => load(), [load]);

  if (error) return <ErrorState message={errorText ?? t('season.loadFailed')} onRetry={load} />;
  if (!season || !schedule) return <LoadingState />;
  const move = async (event: string, reason?: string) => {
    try {
      await seasonsApi.transition(season.seasonId, event, season.version, reason);
      void notify.success(t('season.movedShort'));
      load();
    } catch (failure) {
      seasonFailed();
      if (reason !== undefined) throw failure;
      void notify.error(await failureText(failure, t('action.failed')));
    }
  };
  return (
    <section aria-labelledby="season-title" className={css({ display: 'grid', gap: '4' })}>
      <PageHeader
        id="season-title"
        title={season.name}
        description={t('season.summary', {
          code: season.code,
          from: format.date(`${season.startsOn}T12:00:00`),
          to: format.date(`${season.endsOn}T12:00:00`),
          opens: format.dateTime(season.registrationOpensAt),
          closes: format.dateTime(season.registrationClosesAt),
        })}
        actions={
          <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap', alignItems: 'center' })}>
            <Badge tone={seasonTone[season.status]} testId="season-status">
              {t(`status.${season.status}`)}
            </Badge>
            {season.canConfigure ? (
              <Button variant="ghost" onClick={() => setOpen('edit')}>
                {t('action.edit')}
              </Button>
            ) : null}
            {season.actions.map((event) => (
              <Button
                key={event}
                variant="outline"
                data-testid={`season-${event}`}
                onClick={() => (event === 'season.reopenRegistration' ? setOpen('reopen') : void move(event))}
              >
                {t(`event.${event}`)}
              </Button>
            ))}
          </div>
        }
      />
      <div className={`${card} ${css({ p: '4' })}`}>
        <Tabs
          label={t('season.tabs')}
          value={tab}
          onChange={(next) => setParams((p) => ({ ...Object.fromEntries(p), tab: next }), { replace: true })}
          tabs={tabs.map((value) => ({ value, label: t(`tab.${value}`) }))}
        >
          {(value) =>
            value === 'schedule' ? (
              <ScheduleTab season={season} schedule={schedule} reload={load} />
            ) : value === 'sets' ? (
              <SetsTab key={season.version} season={season} schedule={schedule} reload={load} />
            ) : value === 'sections' ? (
              <SectionsTab key={season.version} season={season} schedule={schedule} reload={load} />
            ) : value === 'centers' ? (
              <CentersTab season={season} reloadSeason={load} />
            ) : (
              <AdmitCardsTab season={season} />
            )
          }
        </Tabs>
      </div>
      {open === 'edit' ? (
        <SeasonDialog
          season={season}
          onClose={() => setOpen(null)}
          onSaved={() => {
            setOpen(null);
            load();
          }}
        />
      ) : null}
      {open === 'reopen' ? (
        <ReasonDialog
          title={t('event.season.reopenRegistration')}
          label={t('season.reopenReason')}
          confirmLabel={t('event.season.reopenRegistration')}
          onClose={() => setOpen(null)}
          onSubmit={(reason) => move('season.reopenRegistration', reason)}
        />
      ) : null}
    </section>
  );
}

function SeasonPage() {
  const workspace = useItemWorkspace();
  const { seasonId } = useParams();
  const id = Number(seasonId);
  if (!workspace.project) return <NoProjectState />;
  if (!Number.isSafeInteger(id) || id < 1) return <ErrorState />;
  return <SeasonDetail key={id} seasonId={id} />;
}

export default function GatedSeasonPage() {
  return (
    <PermissionGate permission={P.Exams.View}>
      <SeasonPage />
    </PermissionGate>
  );
}
