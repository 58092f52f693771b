import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { css } from '#styled-system/css';
import { P } from '#machines/permissions.ts';
import { notify } from '#src/app/notifications/notify.ts';
import { examCenterStore } from '#src/app/stores/slices.ts';
import { useHasPermission } from '#src/app/use-permission.ts';
import { Badge } from '#src/components/ui/badge.tsx';
import { Button } from '#src/components/ui/button.tsx';
import type { Column } from '#src/components/ui/data-table.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { FileUpload } from '#src/components/ui/file-upload.tsx';
import { FilterFold } from '#src/components/ui/filter-fold.tsx';
import { card, PageHeader } from '#src/components/ui/page-header.tsx';
import { PagedTable } from '#src/components/ui/paged-table.tsx';
import { SearchInput } from '#src/components/ui/search-input.tsx';
import { SelectField } from '#src/components/ui/select.tsx';
import { EmptyState } from '#src/components/ui/states.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import { useErrorText } from '#src/lib/use-error-text.ts';
import { usePagedSearch } from '#src/lib/use-paged-search.ts';
import { DownloadButton, PermissionGate } from '#src/features/users/index.ts';
import { centersApi, type Center, type CenterBody, type CenterImport } from './api/seasons-api.ts';
import { failureText } from './lib/call-failure.ts';

const XLSX = '.xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const CODE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
const filterRow = css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: '2fr 1fr' }, gap: '3', alignItems: 'end', p: '4' });

/** Create or edit a center: code, name, address, city, state, capacity, CBT, contact, active. */
function CenterDialog({ center, onClose, onSaved }: { center: Center | null; onClose: () => void; onSaved: (saved: Center) => void }) {
  const { t } = useTranslation('seasons');
  const [form, setForm] = useState<CenterBody>(
    center ?? {
      code: '',
      name: '',
      address: '',
      city: '',
      state: '',
      capacity: 100,
      cbtCapable: false,
      contactName: '',
      contactPhone: '',
      contactEmail: '',
      isActive: true,
    },
  );
  const [capacity, setCapacity] = useState(String(form.capacity));
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const set = <K extends keyof CenterBody>(key: K, value: CenterBody[K]) => setForm((f) => ({ ...f, [key]: value }));
  const capacityNumber = Number(capacity);
  const errors = {
    code: CODE.test(form.code) ? null : t('center.codeInvalid'),
    name: form.name.trim() ? null : t('center.nameRequired'),
    city: form.city.trim() ? null : t('center.cityRequired'),
    capacity: Number.isInteger(capacityNumber) && capacityNumber >= 1 && capacityNumber <= 100_000 ? null : t('center.capacityInvalid'),
  };
  const valid = Object.values(errors).every((e) => e === null);
  const show = (error: string | null) => (shown && error ? error : undefined);
  return (
    <Dialog
      title={center ? t('center.editTitle', { code: center.code }) : t('center.createTitle')}
      onClose={onClose}
      busy={busy}
      size="lg"
      testId="center-form"
      onSubmit={(event) => {
        event.preventDefault();
        setShown(true);
        if (!valid) return;
        setBusy(true);
        setFailure(null);
        const body = { ...form, name: form.name.trim(), city: form.city.trim(), capacity: capacityNumber };
        (center ? centersApi.edit(center.centerId, { ...body, version: center.version }) : centersApi.create(body))
          .then(onSaved, async (error: unknown) => setFailure(await failureText(error, t('center.failed'))))
          .finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button variant="ghost" onClick={onClose} disabled={busy}>
            {t('action.cancel')}
          </Button>
          <Button type="submit" loading={busy} data-testid="center-save">
            {center ? t('action.save') : t('action.create')}
          </Button>
        </>
      }
    >
      <div className={css({ display: 'grid', gap: '3', gridTemplateColumns: { base: '1fr', sm: '1fr 2fr' } })}>
        <TextField
          label={t('center.code')}
          value={form.code}
          onChange={(e) => set('code', e.target.value)}
          error={show(errors.code)}
          required
          data-testid="center-code"
        />
        <TextField
          label={t('center.name')}
          value={form.name}
          onChange={(e) => set('name', e.target.value)}
          error={show(errors.name)}
          required
          data-testid="center-name"
        />
        <TextField
          label={t('center.city')}
          value={form.city}
          onChange={(e) => set('city', e.target.value)}
          error={show(errors.city)}
          required
          data-testid="center-city"
        />
        <TextField label={t('center.address')} value={form.address} onChange={(e) => set('address', e.target.value)} />
        <TextField label={t('center.state')} value={form.state} onChange={(e) => set('state', e.target.value)} />
        <TextField
          label={t('center.capacity')}
          inputMode="numeric"
          value={capacity}
          onChange={(e) => setCapacity(e.target.value)}
          error={show(errors.capacity)}
          required
          data-testid="center-capacity"
        />
        <TextField label={t('center.contactName')} value={form.contactName} onChange={(e) => set('contactName', e.target.value)} />
        <TextField label={t('center.contactPhone')} value={form.contactPhone} onChange={(e) => set('contactPhone', e.target.value)} inputMode="tel" />
        <TextField label={t('center.contactEmail')} value={form.contactEmail} onChange={(e) => set('contactEmail', e.target.value)} type="email" />
      </div>
      <Switch label={t('center.cbtCapable')} checked={form.cbtCapable} onChange={(v) => set('cbtCapable', v)} testId="center-cbt" />
      <Switch label={t('center.isActive')} checked={form.isActive} onChange={(v) => set('isActive', v)} testId="center-active" />
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })} data-testid="center-error">
          {failure}
        </p>
      ) : null}
    </Dialog>
  );
}

/** The .xlsx import: the template, the upload, the counts, the first refused rows and the whole error file. */
function ImportDialog({ onClose, onImported }: { onClose: () => void; onImported: () => void }) {
  const { t } = useTranslation('seasons');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<CenterImport | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  return (
    <Dialog
      title={t('import.title')}
      description={t('import.intro')}
      onClose={onClose}
      busy={busy}
      size="lg"
      testId="center-import"
      footer={
        <>
          <DownloadButton label={t('import.template')} fallbackName="exam-center-template.xlsx" fetchFile={(p) => centersApi.template(p)} variant="ghost" />
          <Button
            disabled={!files.length}
            loading={busy}
            data-testid="center-import-upload"
            onClick={() => {
              setBusy(true);
              setFailure(null);
              centersApi
                .import(files[0])
                .then(
                  (answer) => {
                    setResult(answer);
                    setFiles([]);
                    onImported();
                  },
                  async (error: unknown) => setFailure(await failureText(error, t('import.failed'))),
                )
                .finally(() => setBusy(false));
            }}
          >
            {t('import.upload')}
          </Button>
        </>
      }
    >
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
      {failure ? (
        <p role="alert" className={css({ color: 'error.dark' })}>
          {failure}
        </p>
      ) : null}
      {result ? (
        <div role="status" data-testid="center-import-result" className={css({ display: 'grid', gap: '2' })}>
          <p>{t('import.result', { total: result.totalRows, created: result.createdCount, failed: result.failedCount })}</p>
          {result.errors.length ? (
            <ul className={css({ fontSize: 'sm', listStyle: 'disc', ps: '5' })}>
              {result.errors.slice(0, 10).map((e) => (
                <li key={e.rowNumber}>{t('import.rowError', { row: e.rowNumber, reason: e.reason })}</li>
              ))}
            </ul>
          ) : null}
          {result.hasErrorFile ? (
            <DownloadButton
              label={t('import.errorFile')}
              fallbackName="exam-center-errors.xlsx"
              fetchFile={(p) => centersApi.errorFile(result.importId, p)}
              testId="center-import-errors"
            />
          ) : null}
        </div>
      ) : null}
    </Dialog>
  );
}

/** Exam centers of the tenant (issue 18): search with filters kept in the URL, create, edit, import. */
function CentersPage() {
  const { t } = useTranslation('seasons');
  const examsManage = useHasPermission(P.Exams.Manage);
  const projectsManage = useHasPermission(P.Projects.Manage);
  const canManage = examsManage || projectsManage;
  const search = usePagedSearch<Center>(
    (query) => centersApi.search(query),
    { orderBy: ['city asc'] },
    {
      city: 'string',
      state: 'string',
      cbtCapable: 'string',
      isActive: 'string',
      minCapacity: 'string',
    },
  );
  const errorText = useErrorText(search.error);
  const [open, setOpen] = useState<{ kind: 'create' } | { kind: 'edit'; center: Center } | { kind: 'import' } | null>(null);
  const filters = search.query.filters as { city?: string; state?: string; cbtCapable?: string; isActive?: string; minCapacity?: string };
  const filter = (name: string, value: string) => search.send({ type: 'search.filter', filters: { [name]: value } });
  const active = [filters.city, filters.state, filters.cbtCapable, filters.isActive, filters.minCapacity].filter(Boolean).length;
  const yesNo = [
    { value: 'true', label: t('filter.yes') },
    { value: 'false', label: t('filter.no') },
  ];

  const columns: Column<Center>[] = [
    { key: 'code', header: t('center.code'), sortKey: 'code', cell: (c) => <span className={css({ fontFamily: 'mono' })}>{c.code}</span> },
    {
      key: 'name',
      header: t('center.name'),
      sortKey: 'name',
      cell: (c) => (
        <span>
          <span className={css({ fontWeight: 'semibold', display: 'block' })}>{c.name}</span>
          <span className={css({ fontSize: 'xs', color: 'fg.muted' })}>{c.address}</span>
        </span>
      ),
    },
    { key: 'city', header: t('center.city'), sortKey: 'city', cell: (c) => c.city },
    { key: 'state', header: t('center.state'), sortKey: 'state', hideOnSmall: true, cell: (c) => c.state },
    { key: 'capacity', header: t('center.capacity'), sortKey: 'capacity', align: 'end', cell: (c) => c.capacity },
    { key: 'cbt', header: t('center.cbt'), cell: (c) => (c.cbtCapable ? <Badge tone="info">{t('center.cbtYes')}</Badge> : t('center.cbtNo')) },
    {
      key: 'active',
      header: t('center.status'),
      cell: (c) => <Badge tone={c.isActive ? 'success' : 'neutral'}>{c.isActive ? t('center.active') : t('center.inactive')}</Badge>,
    },
    {
      key: 'actions',
      header: <span className={css({ srOnly: true })}>{t('field.actions')}</span>,
      align: 'end',
      cell: (c) =>
        canManage ? (
          <Button
            size="sm"
            variant="ghost"
            aria-label={t('center.editOf', { code: c.code })}
            onClick={() => {
              examCenterStore.trigger.select({ record: c as unknown as Record<string, unknown> });
              setOpen({ kind: 'edit', center: c });
            }}
            data-testid={`center-edit-${c.code}`}
          >
            {t('action.edit')}
          </Button>
        ) : null,
    },
  ];

  return (
    <section aria-labelledby="centers-title">
      <PageHeader
        id="centers-title"
        title={t('centers.title')}
        description={t('centers.intro')}
        actions={
          canManage ? (
            <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
              <Button variant="outline" onClick={() => setOpen({ kind: 'import' })} data-testid="centers-import">
                {t('import.open')}
              </Button>
              <Button onClick={() => setOpen({ kind: 'create' })} data-testid="centers-new">
                {t('centers.new')}
              </Button>
            </div>
          ) : null
        }
      />
      <div className={card}>
        <div role="search" aria-label={t('centers.filters')} className={filterRow}>
          <SearchInput
            label={t('centers.search')}
            value={search.query.keyword}
            onChange={(e) => search.send({ type: 'search.keyword', keyword: e.target.value })}
            data-testid="centers-search"
          />
          <FilterFold active={active}>
            <TextField label={t('center.city')} value={filters.city ?? ''} onChange={(e) => filter('city', e.target.value)} data-testid="filter-city" />
            <TextField label={t('center.state')} value={filters.state ?? ''} onChange={(e) => filter('state', e.target.value)} />
            <SelectField
              label={t('center.cbt')}
              value={filters.cbtCapable ?? ''}
              placeholder={t('filter.any')}
              options={yesNo}
              onValueChange={(v) => filter('cbtCapable', v)}
              testId="filter-cbt"
            />
            <SelectField
              label={t('center.status')}
              value={filters.isActive ?? ''}
              placeholder={t('filter.any')}
              options={[
                { value: 'true', label: t('center.active') },
                { value: 'false', label: t('center.inactive') },
              ]}
              onValueChange={(v) => filter('isActive', v)}
            />
            <TextField
              label={t('filter.minCapacity')}
              inputMode="numeric"
              value={filters.minCapacity ?? ''}
              onChange={(e) => filter('minCapacity', e.target.value.replace(/\D/g, ''))}
            />
          </FilterFold>
        </div>
        <PagedTable
          search={search}
          errorText={errorText}
          empty={<EmptyState title={active || search.query.keyword ? t('centers.noMatch') : t('centers.empty')}>{t('centers.emptyHint')}</EmptyState>}
          caption={t('centers.caption')}
          columns={columns}
          rowKey={(c) => c.centerId}
          testId="centers-table"
        />
      </div>
      {open?.kind === 'create' || open?.kind === 'edit' ? (
        <CenterDialog
          center={open.kind === 'edit' ? open.center : null}
          onClose={() => setOpen(null)}
          onSaved={(saved) => {
            setOpen(null);
            examCenterStore.trigger.update({ record: saved as unknown as Record<string, unknown> });
            void notify.success(t('center.saved', { code: saved.code }));
            search.send({ type: 'search.reload' });
          }}
        />
      ) : null}
      {open?.kind === 'import' ? <ImportDialog onClose={() => setOpen(null)} onImported={() => search.send({ type: 'search.reload' })} /> : null}
    </section>
  );
}

export default function GatedCentersPage() {
  return (
    <PermissionGate permission={P.Exams.View}>
      <CentersPage />
    </PermissionGate>
  );
}
