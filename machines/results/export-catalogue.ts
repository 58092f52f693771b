/**
 * Export templates (EXAMS.md §2 "Export template", issue 20, docs/decisions/0257): what each
 * record kind can export. The server fills rows with exactly these fields and the builder offers
 * them; both read this one catalogue, so a template can only name a field that exists.
 */
export const EXPORT_KINDS = ['registrations', 'attendance', 'results', 'itemStatistics'] as const;
export type ExportKind = (typeof EXPORT_KINDS)[number];

export const EXPORT_FORMATS = ['text', 'number', 'percentage', 'date'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_FILE_TYPES = ['xlsx', 'csv'] as const;
export type ExportFileType = (typeof EXPORT_FILE_TYPES)[number];

/** The languages a header may be given in (the content languages, EXAMS.md §2). */
export const EXPORT_HEADER_LANGUAGES = ['en', 'hi', 'gu', 'fr', 'es'] as const;

/** Filters a template may preset; which apply depends on the kind. */
export const EXPORT_FILTERS = ['examId', 'paperId', 'seasonId', 'centerId', 'status'] as const;
export type ExportFilterName = (typeof EXPORT_FILTERS)[number];

export interface CatalogueField {
  field: string;
  /** The format a column of this field gets when the builder adds it. */
  format: ExportFormat;
}

const f = (field: string, format: ExportFormat = 'text'): CatalogueField => ({ field, format });

export const exportCatalogue: Record<ExportKind, { fields: readonly CatalogueField[]; filters: readonly ExportFilterName[]; needs?: ExportFilterName }> = {
  registrations: {
    fields: [
      f('rollNumber'),
      f('candidateName'),
      f('email'),
      f('examCode'),
      f('examName'),
      f('seasonName'),
      f('medium'),
      f('preferredCity'),
      f('centerCode'),
      f('centerName'),
      f('seatNumber', 'number'),
      f('status'),
      f('extraTimePercent', 'number'),
      f('registeredAt', 'date'),
    ],
    filters: ['examId', 'seasonId', 'centerId', 'status'],
  },
  attendance: {
    fields: [
      f('rollNumber'),
      f('candidateName'),
      f('centerCode'),
      f('centerName'),
      f('centerCity'),
      f('paperCode'),
      f('sitsOn', 'date'),
      f('attendance'),
      f('deliveryStatus'),
      f('startedAt', 'date'),
      f('endedAt', 'date'),
    ],
    filters: ['examId', 'seasonId', 'centerId', 'paperId'],
  },
  results: {
    fields: [
      f('rollNumber'),
      f('candidateName'),
      f('centerName'),
      f('paperCode'),
      f('paperTitle'),
      f('setLetter'),
      f('score', 'number'),
      f('maxScore', 'number'),
      f('percentage', 'percentage'),
      f('correct', 'number'),
      f('wrong', 'number'),
      f('omitted', 'number'),
      f('awaitingMarking', 'number'),
      f('deliveryStatus'),
      f('submittedAt', 'date'),
    ],
    filters: ['examId', 'paperId', 'centerId'],
  },
  itemStatistics: {
    fields: [
      f('number', 'number'),
      f('itemId'),
      f('kind'),
      f('maxScore', 'number'),
      f('answered', 'number'),
      f('facility', 'percentage'),
      f('pointBiserial', 'number'),
      f('upperLowerIndex', 'number'),
      f('omittedRate', 'percentage'),
      f('key'),
      f('flags'),
    ],
    filters: ['examId', 'paperId'],
    needs: 'paperId',
  },
};

export const fieldsOf = (kind: ExportKind) => exportCatalogue[kind].fields.map((x) => x.field);

export interface ExportColumn {
  field: string;
  /** Header per language; `en` is required, the others fall back to it. */
  headers: Partial<Record<(typeof EXPORT_HEADER_LANGUAGES)[number], string>> & { en: string };
  format: ExportFormat;
}

export type ExportFilters = Partial<Record<Exclude<ExportFilterName, 'status'>, number>> & { status?: string };

export interface ExportTemplateDraft {
  name: string;
  recordKind: ExportKind;
  fileType: ExportFileType;
  columns: ExportColumn[];
  filters: ExportFilters;
}

export const EXPORT_LIMITS = { columns: 40, name: 120, header: 120 } as const;

/** What is wrong with a template, by field (empty when it is fine); the server answers these with 400. */
export function checkExportTemplate(t: ExportTemplateDraft): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const add = (key: string, message: string) => (errors[key] ??= []).push(message);
  if (!t.name.trim()) add('name', 'The name is required.');
  const catalogue = exportCatalogue[t.recordKind];
  if (!catalogue) {
    add('recordKind', `The record kind must be one of ${EXPORT_KINDS.join(', ')}.`);
    return errors;
  }
  if (t.columns.length === 0) add('columns', 'Add at least one column.');
  const known = new Set(catalogue.fields.map((x) => x.field));
  const seen = new Set<string>();
  t.columns.forEach((column, index) => {
    const at = `columns[${index}]`;
    if (!known.has(column.field)) add(`${at}.field`, `"${column.field}" is not a field of ${t.recordKind} exports.`);
    if (seen.has(column.field)) add(`${at}.field`, `"${column.field}" is already a column.`);
    seen.add(column.field);
    if (!column.headers.en?.trim()) add(`${at}.headers.en`, 'The English header is required.');
  });
  for (const name of Object.keys(t.filters) as ExportFilterName[]) {
    if (!catalogue.filters.includes(name)) add(`filters.${name}`, `${t.recordKind} exports cannot be filtered by ${name}.`);
  }
  return errors;
}

/** A cell as the template formats it; null stays empty. Percentages take a share (0.75 → 75%). */
export function formatCell(value: unknown, format: ExportFormat): string | number | Date | null {
  if (value === null || value === undefined || value === '') return null;
  switch (format) {
    case 'number':
      return typeof value === 'number' ? value : Number.isFinite(Number(value)) ? Number(value) : String(value);
    case 'percentage':
      // Number() returns a number unchanged, so no typeof check is needed here.
      return Number(value);
    case 'date': {
      const date = value instanceof Date ? value : new Date(String(value));
      return Number.isNaN(date.getTime()) ? String(value) : date;
    }
    default:
      return Array.isArray(value) ? value.join(', ') : String(value);
  }
}
