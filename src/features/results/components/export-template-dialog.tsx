import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  checkExportTemplate,
  EXPORT_FILE_TYPES,
  EXPORT_FORMATS,
  EXPORT_KINDS,
  exportCatalogue,
  type ExportColumn,
  type ExportFileType,
  type ExportFilters,
  type ExportKind,
} from '#machines/results/export-catalogue.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog } from '#src/components/ui/dialog.tsx';
import { TextField } from '#src/components/ui/field.tsx';
import { SelectField, type SelectOption } from '#src/components/ui/select.tsx';
import { css } from '#styled-system/css';
import type { ExportTemplateBody, ExportTemplateRecord } from '../api/statistics-api.ts';

/**
 * The export template builder (issue 20): the record kind, the columns (a source field of the
 * kind's catalogue, a header per content language, the format, their order), the file type and
 * the default filters. The same checks as the server's (machines/results/export-catalogue.ts)
 * run as the user types; the server's refusal is shown as it comes.
 */
export interface FilterChoices {
  examId: SelectOption[];
  paperId: SelectOption[];
  seasonId: SelectOption[];
  centerId: SelectOption[];
  status: SelectOption[];
}

const columnBox = css({ borderWidth: '1px', borderColor: 'border', borderRadius: 'md', p: '3', display: 'grid', gap: '2' });
const row = css({ display: 'grid', gap: '2', gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' } });
const legend = css({ fontWeight: 'semibold', fontSize: 'sm' });

export function ExportTemplateDialog({
  template,
  languages,
  filterChoices,
  failure,
  onClose,
  onSave,
}: {
  template: ExportTemplateRecord | null;
  /** The project's content languages: a header field each (en always). */
  languages: readonly string[];
  filterChoices: FilterChoices;
  failure: string | null;
  onClose: () => void;
  onSave: (body: ExportTemplateBody) => Promise<void>;
}) {
  const { t } = useTranslation('projects');
  const [name, setName] = useState(template?.name ?? '');
  const [kind, setKind] = useState<ExportKind>(template?.recordKind ?? 'results');
  const [fileType, setFileType] = useState<ExportFileType>(template?.fileType ?? 'xlsx');
  const [columns, setColumns] = useState<ExportColumn[]>(template?.columns ?? []);
  const [filters, setFilters] = useState<ExportFilters>(template?.filters ?? {});
  const [busy, setBusy] = useState(false);
  const [touched, setTouched] = useState(false);
  const headerLanguages = ['en', ...languages.filter((l) => l !== 'en')];

  // Another kind has other fields and filters: what does not fit it goes.
  useEffect(() => {
    if (template) return;
    const fields = new Set(exportCatalogue[kind].fields.map((f) => f.field));
    setColumns((current) => current.filter((c) => fields.has(c.field)));
    setFilters((current) => Object.fromEntries(Object.entries(current).filter(([k]) => exportCatalogue[kind].filters.includes(k as never))) as ExportFilters);
  }, [kind, template]);

  const problems = checkExportTemplate({ name, recordKind: kind, fileType, columns, filters });
  const problemOf = (key: string) => (touched ? (problems[key] ?? null) : null);
  const fieldLabel = (field: string) => t(`results.sourceField.${field}`);
  const used = new Set(columns.map((c) => c.field));
  const available = exportCatalogue[kind].fields.filter((f) => !used.has(f.field));

  const update = (index: number, next: Partial<ExportColumn>) => setColumns((current) => current.map((c, k) => (k === index ? { ...c, ...next } : c)));
  const move = (index: number, by: number) =>
    setColumns((current) => {
      const next = [...current];
      const [taken] = next.splice(index, 1);
      next.splice(index + by, 0, taken);
      return next;
    });
  const addColumn = () => {
    const field = available[0];
    if (!field) return;
    setColumns((current) => [...current, { field: field.field, headers: { en: fieldLabel(field.field) }, format: field.format }]);
  };

  return (
    <Dialog
      title={template ? t('results.builder.editTitle', { name: template.name }) : t('results.builder.createTitle')}
      description={t('results.builder.intro')}
      size="lg"
      busy={busy}
      onClose={onClose}
      testId="export-template-dialog"
      onSubmit={(event) => {
        event.preventDefault();
        setTouched(true);
        if (Object.keys(problems).length) return;
        setBusy(true);
        void onSave({ name: name.trim(), recordKind: kind, fileType, columns, filters }).finally(() => setBusy(false));
      }}
      footer={
        <>
          <Button type="button" variant="outline" onClick={onClose} disabled={busy}>
            {t('results.builder.cancel')}
          </Button>
          <Button type="submit" disabled={busy} data-testid="export-template-save">
            {t('results.builder.save')}
          </Button>
        </>
      }
    >
      <div className={css({ display: 'grid', gap: '3' })}>
        {failure ? (
          <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })} data-testid="export-template-failure">
            {failure}
          </p>
        ) : null}
        <TextField
          label={t('results.field.name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={problemOf('name')}
          required
          data-testid="template-name"
        />
        <div className={row}>
          <SelectField
            label={t('results.field.kind')}
            value={kind}
            onValueChange={(value) => setKind(value as ExportKind)}
            options={EXPORT_KINDS.map((k) => ({ value: k, label: t(`results.recordKind.${k}`) }))}
            disabled={template !== null}
            hint={template ? t('results.builder.kindFixed') : undefined}
            testId="template-kind"
          />
          <SelectField
            label={t('results.field.fileType')}
            value={fileType}
            onValueChange={(value) => setFileType(value as ExportFileType)}
            options={EXPORT_FILE_TYPES.map((f) => ({ value: f, label: t(`results.fileType.${f}`) }))}
            testId="template-file-type"
          />
        </div>
        <fieldset className={css({ display: 'grid', gap: '2' })}>
          <legend className={legend}>{t('results.field.columns')}</legend>
          {problemOf('columns') ? (
            <p role="alert" className={css({ color: 'error.main', fontSize: 'sm' })}>
              {t('results.builder.noColumns')}
            </p>
          ) : null}
          <ol className={css({ display: 'grid', gap: '2' })} data-testid="template-columns">
            {columns.map((column, index) => {
              const n = index + 1;
              const options = [column.field, ...available.map((f) => f.field)].map((field) => ({ value: field, label: fieldLabel(field) }));
              return (
                <li key={`${column.field}-${index}`} className={columnBox} data-testid={`template-column-${n}`}>
                  <div className={row}>
                    <SelectField
                      label={t('results.builder.sourceField', { n })}
                      value={column.field}
                      onValueChange={(field) => {
                        const meta = exportCatalogue[kind].fields.find((f) => f.field === field);
                        update(index, { field, format: meta?.format ?? column.format, headers: { ...column.headers, en: fieldLabel(field) } });
                      }}
                      options={options}
                      testId={`column-field-${n}`}
                    />
                    <SelectField
                      label={t('results.builder.format', { n })}
                      value={column.format}
                      onValueChange={(format) => update(index, { format: format as ExportColumn['format'] })}
                      options={EXPORT_FORMATS.map((f) => ({ value: f, label: t(`results.format.${f}`) }))}
                      testId={`column-format-${n}`}
                    />
                  </div>
                  <div className={row}>
                    {headerLanguages.map((language) => (
                      <TextField
                        key={language}
                        label={t('results.builder.header', { n, language: t(`results.language.${language}`, { defaultValue: language }) })}
                        value={(column.headers as Record<string, string | undefined>)[language] ?? ''}
                        onChange={(e) => update(index, { headers: { ...column.headers, [language]: e.target.value } })}
                        error={language === 'en' ? problemOf(`columns[${index}].headers.en`) : null}
                        required={language === 'en'}
                        data-testid={`column-header-${n}-${language}`}
                      />
                    ))}
                  </div>
                  <div className={css({ display: 'flex', gap: '2', flexWrap: 'wrap' })}>
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      onClick={() => move(index, -1)}
                      disabled={index === 0}
                      aria-label={t('results.builder.moveUp', { n })}
                    >
                      {t('results.builder.up')}
                    </Button>
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      onClick={() => move(index, 1)}
                      disabled={index === columns.length - 1}
                      aria-label={t('results.builder.moveDown', { n })}
                    >
                      {t('results.builder.down')}
                    </Button>
                    <Button
                      type="button"
                      size="sm"
                      variant="outline"
                      onClick={() => setColumns((current) => current.filter((_, k) => k !== index))}
                      aria-label={t('results.builder.remove', { n })}
                      data-testid={`column-remove-${n}`}
                    >
                      {t('results.builder.removeShort')}
                    </Button>
                  </div>
                </li>
              );
            })}
          </ol>
          <div>
            <Button type="button" variant="outline" onClick={addColumn} disabled={available.length === 0} data-testid="add-column">
              {t('results.builder.addColumn')}
            </Button>
          </div>
        </fieldset>
        <fieldset className={css({ display: 'grid', gap: '2' })}>
          <legend className={legend}>{t('results.field.filters')}</legend>
          <div className={row}>
            {exportCatalogue[kind].filters.map((name) => (
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
                error={problemOf(`filters.${name}`)}
                testId={`template-filter-${name}`}
              />
            ))}
          </div>
        </fieldset>
      </div>
    </Dialog>
  );
}
