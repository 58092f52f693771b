import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { Link } from '#src/components/ui/link.tsx';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { seasonStatusNames } from '#machines/exams/season.machine.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { seasonFailed, updateSeason } from '#src/app/stores/workspace-selection.ts';
import { Badge, type BadgeTone } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import type { Column } from '#src/components/ui/data-table.tsx';
import { DateField } from '#src/components/ui/date-field.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { RowMenu, type MenuAction } from '#src/components/ui/menu.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { useFormat } from '#src/lib/format.ts';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { useItemWorkspace } from '#src/features/items/index.ts';
import { NoProjectState } from '#src/features/projects/index.ts';
import { PermissionGate } from '#src/features/users/index.ts';
import { seasonsApi, type Season, type SeasonBody } from './api/seasons-api.ts';
import { ReasonDialog } from './components/reason-dialog.tsx';
import { failureText } from './lib/call-failure.ts';

export const seasonTone: Record<string, BadgeTone> = {
  Planned: 'neutral',
  RegistrationOpen: 'success',
  RegistrationClosed: 'warning',
  InProgress: 'info',
  Completed: 'primary',
};

/** `2026-11-01T05:30:00.000Z` ↔ the browser's `datetime-local` value in its own zone (decision 0101). */
export const toLocalInput = (iso: string) => {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
export const fromLocalInput = (value: string) => (value ? new Date(value).toISOString() : '');

/** Create or edit a season: code, name, dates, registration window, roll pattern. */
export function SeasonDialog({ season, onClose, onSaved }: { season: Season | null; onClose: () => void; onSaved: (saved: Season) => void }) {
  const { t } = useTranslation('seasons');
  const [form, setForm] = useState({
    code: season?.code ?? '',
    name: season?.name ?? '',
    startsOn: season?.startsOn ?? '',
    endsOn: season?.endsOn ?? '',
    opens: season ? toLocalInput(season.registrationOpensAt) : '',
    closes: season ? toLocalInput(season.registrationClosesAt) : '',
    rollPattern: season?.rollPattern ?? '',
  });
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const set = (key: keyof typeof form, value: string) => setForm((f) => ({ ...f, [key]: value }));
  const errors = {
    code: /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/.test(form.code) ? null : t('season.codeInvalid'),
    name: form.name.trim() ? null : t('season.nameRequired'),
    startsOn: form.startsOn ? null : t('season.dateRequired'),
    endsOn: !form.endsOn ? t('season.dateRequired') : form.endsOn < form.startsOn ? t('season.endsBeforeStart') : null,
    opens: form.opens ? null : t('season.dateRequired'),
    closes: !form.closes ? t('season.dateRequired') : form.closes <= form.opens ? t('season.closesBeforeOpens') : null,
  };
  const valid = Object.values(errors).every((e) => e === null);
  const show = (error: string | null) => (shown && error ? error : undefined);
  return (
    <Dialog
      title={season ? t('season.editTitle', { name: season.name }) : t('season.createTitle')}
      onClose={onClose}
      busy={busy}
      size="lg"
      testId="season-form"
      onSubmit={(event) => {
        event.preventDefault();
        setShown(true);
        if (!valid) return;
        setBusy(true);
        setFailure(null);
        const body: SeasonBody = {
          code: form.code,
          name: form.name.trim(),
          startsOn: form.startsOn,
          endsOn: form.endsOn,
          registrationOpensAt: fromLocalInput(form.opens),
          registrationClosesAt: fromLocalInput(form.closes),
          ...(form.rollPattern.trim() ? { rollPattern: form.rollPattern.trim() } : {}),
        };
        (season ? seasonsApi.edit(season.seasonId, { ...body, version: season.version }) : seasonsApi.create(body))
          .then(onSaved, async (error: unknown) => {
            // "Cleared on failure" (spec §4): a failed update leaves no stale season selected.
            if (season) seasonFailed();
            setFailure(await failureText(error, t('season.failed')));
          })
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="season-save">
            {season ? t('action.save') : t('action.create')}
          </Button>
        </>
      }
    >
      <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: '1fr 2fr' } })}>
        <TextField
          label={t('season.code')}
          value={form.code}
          onChange={(e) => set('code', e.target.value)}
          error={show(errors.code)}
          required
          data-testid="season-code"
        />
        <TextField
          label={t('season.name')}
          value={form.name}
          onChange={(e) => set('name', e.target.value)}
          error={show(errors.name)}
          required
          data-testid="season-name"
        />
        <DateField label={t('season.startsOn')} value={form.startsOn} onChange={(v) => set('startsOn', v)} error={show(errors.startsOn)} />
        <DateField label={t('season.endsOn')} value={form.endsOn} onChange={(v) => set('endsOn', v)} error={show(errors.endsOn)} />
        <TextField
          label={t('season.opensAt')}
          type="datetime-local"
          value={form.opens}
          onChange={(e) => set('opens', e.target.value)}
          error={show(errors.opens)}
          required
          data-testid="season-opens"
        />
        <TextField
          label={t('season.closesAt')}
          type="datetime-local"
          value={form.closes}
          onChange={(e) => set('closes', e.target.value)}
          error={show(errors.closes)}
          required
          data-testid="season-closes"
        />
      </div>
      <TextField
        label={t('season.rollPattern')}
        hint={t('season.rollPatternHint')}
        value={form.rollPattern}
        onChange={(e) => set('rollPattern', e.target.value)}
        className={css({ fontFamily: 'mono' })}
      />
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })} data-testid="season-error">
          {failure}
        </p>
      ) : null}
    </Dialog>
  );
}

type Open = { kind: 'create' } | { kind: 'edit'; season: Season } | { kind: 'reopen'; season: Season } | null;

/** The seasons (sittings) of the selected project: list, create, edit, and the season machine's status actions. */
function SeasonsList() {
  const { t } = useTranslation('seasons');
  const format = useFormat();
  const navigate = useNavigate();
  const search = usePagedSearch<Season>((query) => seasonsApi.search(query), { orderBy: ['startsOn desc'] }, { status: 'string' });
  const errorText = useErrorText(search.error);
  const [open, setOpen] = useState<Open>(null);
  const status = (search.query.filters.status as string | undefined) ?? '';
  const reload = () => search.send({ type: 'search.reload' });

  const move = async (season: Season, event: string, reason?: string) => {
    const answer = await seasonsApi.transition(season.seasonId, event, season.version, reason);
    updateSeason(answer.record as unknown as Record<string, unknown>);
    void notify.success(t('season.moved', { name: season.name, status: t(`status.${answer.toStatus}`) }));
    reload();
  };
  const actionsOf = (season: Season): MenuAction[] => [
    { id: 'open', label: t('season.openDetails'), onSelect: () => navigate(`/workspace/seasons/${season.seasonId}`) },
    ...(season.canConfigure ? [{ id: 'edit', label: t('action.edit'), onSelect: () => setOpen({ kind: 'edit', season }) }] : []),
    ...season.actions.map((event) => ({
      id: event,
      label: t(`event.${event}`),
      onSelect: () => {
        if (event === 'season.reopenRegistration') setOpen({ kind: 'reopen', season });
        else
          move(season, event).catch(async (error: unknown) => {
            seasonFailed();
            void notify.error(await failureText(error, t('action.failed')));
          });
      },
    })),
  ];

  const columns: Column<Season>[] = [
    {
      key: 'name',
      header: t('season.name'),
      sortKey: 'name',
      cell: (s) => (
        <Link
          to={`/workspace/seasons/${s.seasonId}`}
          className={css({ color: 'primary.dark', textDecoration: 'underline', fontWeight: 'semibold' })}
          data-testid={`season-link-${s.code}`}
        >
          {s.name}
        </Link>
      ),
    },
    { key: 'code', header: t('season.code'), sortKey: 'code', cell: (s) => <span className={css({ fontFamily: 'mono' })}>{s.code}</span> },
    {
      key: 'dates',
      header: t('season.dates'),
      sortKey: 'startsOn',
      cell: (s) => t('season.dateRange', { from: format.date(`${s.startsOn}T12:00:00`), to: format.date(`${s.endsOn}T12:00:00`) }),
    },
    {
      key: 'window',
      header: t('season.window'),
      hideOnSmall: true,
      cell: (s) => t('season.dateRange', { from: format.dateTime(s.registrationOpensAt), to: format.dateTime(s.registrationClosesAt) }),
    },
    { key: 'papers', header: t('season.papers'), align: 'end', cell: (s) => s.paperCount },
    { key: 'seats', header: t('season.seats'), align: 'end', cell: (s) => t('season.seatsTaken', { allocated: s.allocated, seats: s.seats }) },
    {
      key: 'status',
      header: t('season.status'),
      sortKey: 'status',
      cell: (s) => (
        <Badge tone={seasonTone[s.status]} testId={`season-status-${s.code}`}>
          {t(`status.${s.status}`)}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: <span className={css({ srOnly: true })}>{t('field.actions')}</span>,
      align: 'end',
      cell: (s) => <RowMenu label={t('season.actionsOf', { name: s.name })} actions={actionsOf(s)} testId={`season-actions-${s.code}`} />,
    },
  ];

  return (
    <section aria-labelledby="seasons-title">
      <PageHeader
        id="seasons-title"
        title={t('seasons.title')}
        description={t('seasons.intro')}
        actions={
          <Button onClick={() => setOpen({ kind: 'create' })} data-testid="seasons-new">
            {t('seasons.new')}
          </Button>
        }
      />
      <div className={card}>
        <div
          role="search"
          aria-label={t('seasons.filters')}
          className={css({ display: 'grid', gap: '3', p: '4', gridTemplateColumns: { base: '1fr', md: '2fr 1fr' } })}
        >
          <SearchInput
            label={t('seasons.search')}
            value={search.query.keyword}
            onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })}
          />
          <SelectField
            label={t('season.status')}
            value={status}
            placeholder={t('filter.any')}
            options={seasonStatusNames.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            onValueChange={(value) => search.send({ type: 'search.filter', filters: { status: value } })}
            testId="seasons-status"
          />
        </div>
        <PagedTable
          search={search}
          errorText={errorText}
          empty={<EmptyState title={status || search.query.keyword ? t('seasons.noMatch') : t('seasons.empty')}>{t('seasons.emptyHint')}</EmptyState>}
          caption={t('seasons.caption')}
          columns={columns}
          rowKey={(s) => s.seasonId}
          testId="seasons-table"
        />
      </div>
      {open?.kind === 'create' || open?.kind === 'edit' ? (
        <SeasonDialog
          season={open.kind === 'edit' ? open.season : null}
          onClose={() => setOpen(null)}
          onSaved={(saved) => {
            setOpen(null);
            updateSeason(saved as unknown as Record<string, unknown>);
            void notify.success(t('season.saved', { name: saved.name }));
            if (open.kind === 'create') navigate(`/workspace/seasons/${saved.seasonId}`);
            else reload();
          }}
        />
      ) : null}
      {open?.kind === 'reopen' ? (
        <ReasonDialog
          title={t('event.season.reopenRegistration')}
          label={t('season.reopenReason')}
          confirmLabel={t('event.season.reopenRegistration')}
          onClose={() => setOpen(null)}
          onSubmit={(reason) => move(open.season, 'season.reopenRegistration', reason)}
        />
      ) : null}
    </section>
  );
}

function SeasonsPage() {
  const workspace = useItemWorkspace();
  if (!workspace.project) return <NoProjectState />;
  return <SeasonsList key={String(workspace.projectId)} />;
}

export default function GatedSeasonsPage() {
  return (
    <PermissionGate permission={P.Exams.View}>
      <SeasonsPage />
    </PermissionGate>
  );
}
