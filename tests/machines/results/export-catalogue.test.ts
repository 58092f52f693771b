import { describe, expect, it } from 'vitest';
import {
  checkExportTemplate,
  exportCatalogue,
  fieldsOf,
  formatCell,
  type ExportColumn,
  type ExportKind,
  type ExportTemplateDraft,
} from '#machines/results/export-catalogue.ts';

/** Export templates (issue 20): what a template may name, and how a cell is formatted. */
const column = (field: string, en = field): ExportColumn => ({ field, headers: { en }, format: 'text' });
const draft = (overrides: Partial<ExportTemplateDraft> = {}): ExportTemplateDraft => ({
  name: 'Results by centre',
  recordKind: 'results',
  fileType: 'xlsx',
  columns: [column('rollNumber', 'Roll number'), column('score', 'Score')],
  filters: {},
  ...overrides,
});

describe('fieldsOf', () => {
  it('should list the fields of each record kind in catalogue order', () => {
    expect(fieldsOf('attendance')).toEqual([
      'rollNumber',
      'candidateName',
      'centerCode',
      'centerName',
      'centerCity',
      'paperCode',
      'sitsOn',
      'attendance',
      'deliveryStatus',
      'startedAt',
      'endedAt',
    ]);
    expect(fieldsOf('registrations')).toContain('registeredAt');
    expect(fieldsOf('registrations')).not.toContain('score');
    expect(fieldsOf('itemStatistics')[0]).toBe('number');
  });

  it('should give the builder a numeric, percentage or date format for fields that hold one', () => {
    const formatOf = (kind: ExportKind, field: string) => exportCatalogue[kind].fields.find((x) => x.field === field)?.format;
    expect(formatOf('results', 'score')).toBe('number');
    expect(formatOf('results', 'percentage')).toBe('percentage');
    expect(formatOf('results', 'submittedAt')).toBe('date');
    expect(formatOf('results', 'candidateName')).toBe('text');
  });

  it('should require a paper for item statistics only', () => {
    expect(exportCatalogue.itemStatistics.needs).toBe('paperId');
    expect(exportCatalogue.results.needs).toBeUndefined();
  });
});

describe('checkExportTemplate', () => {
  it('should accept a valid template', () => {
    expect(checkExportTemplate(draft({ filters: { examId: 1, paperId: 2, centerId: 3 } }))).toEqual({});
  });

  it('should require a name that is not blank', () => {
    expect(checkExportTemplate(draft({ name: '   ' }))).toEqual({ name: ['The name is required.'] });
    expect(checkExportTemplate(draft({ name: '' }))).toEqual({ name: ['The name is required.'] });
  });

  it('should refuse an unknown record kind and check nothing else', () => {
    expect(checkExportTemplate(draft({ name: '', recordKind: 'invoices' as ExportKind, columns: [] }))).toEqual({
      name: ['The name is required.'],
      recordKind: ['The record kind must be one of registrations, attendance, results, itemStatistics.'],
    });
  });

  it('should require at least one column', () => {
    expect(checkExportTemplate(draft({ columns: [] }))).toEqual({ columns: ['Add at least one column.'] });
  });

  it('should refuse a field the record kind does not have, by column index', () => {
    expect(checkExportTemplate(draft({ recordKind: 'attendance', columns: [column('rollNumber'), column('score')] }))).toEqual({
      'columns[1].field': ['"score" is not a field of attendance exports.'],
    });
  });

  it('should refuse a field that is already a column, at the repeat only', () => {
    expect(checkExportTemplate(draft({ columns: [column('score'), column('rollNumber'), column('score')] }))).toEqual({
      'columns[2].field': ['"score" is already a column.'],
    });
  });

  it('should collect both messages when an unknown field is repeated', () => {
    expect(checkExportTemplate(draft({ columns: [column('nope'), column('nope')] }))).toEqual({
      'columns[0].field': ['"nope" is not a field of results exports.'],
      'columns[1].field': ['"nope" is not a field of results exports.', '"nope" is already a column.'],
    });
  });

  it('should require an English header that is not blank', () => {
    const missing = { field: 'score', headers: { hi: 'अंक' }, format: 'number' } as unknown as ExportColumn;
    expect(checkExportTemplate(draft({ columns: [column('rollNumber', ' '), missing] }))).toEqual({
      'columns[0].headers.en': ['The English header is required.'],
      'columns[1].headers.en': ['The English header is required.'],
    });
  });

  it('should refuse a filter the record kind does not offer', () => {
    expect(
      checkExportTemplate(draft({ recordKind: 'itemStatistics', columns: [column('itemId')], filters: { paperId: 1, centerId: 2, status: 'x' } })),
    ).toEqual({
      'filters.centerId': ['itemStatistics exports cannot be filtered by centerId.'],
      'filters.status': ['itemStatistics exports cannot be filtered by status.'],
    });
    expect(checkExportTemplate(draft({ recordKind: 'registrations', columns: [column('status')], filters: { status: 'confirmed', seasonId: 4 } }))).toEqual({});
  });
});

describe('formatCell', () => {
  it('should leave an empty value empty whatever the format', () => {
    for (const format of ['text', 'number', 'percentage', 'date'] as const) {
      expect(formatCell(null, format)).toBeNull();
      expect(formatCell(undefined, format)).toBeNull();
      expect(formatCell('', format)).toBeNull();
    }
  });

  it('should keep zero and false, which are not empty', () => {
    expect(formatCell(0, 'number')).toBe(0);
    expect(formatCell(false, 'text')).toBe('false');
  });

  it('should give numbers as numbers, numeric text as a number, and other text unchanged', () => {
    expect(formatCell(12.5, 'number')).toBe(12.5);
    expect(formatCell('42', 'number')).toBe(42);
    expect(formatCell('abc', 'number')).toBe('abc');
    expect(formatCell('Infinity', 'number')).toBe('Infinity');
  });

  it('should keep a value that is already a number as a number, even when it is not finite', () => {
    expect(formatCell(Infinity, 'number')).toBe(Infinity);
    expect(formatCell(Number.NaN, 'number')).toBeNaN();
  });

  it('should give a percentage as the share it holds', () => {
    expect(formatCell(0.75, 'percentage')).toBe(0.75);
    expect(formatCell('0.5', 'percentage')).toBe(0.5);
  });

  it('should give a date as a Date and an invalid date as its text', () => {
    const when = new Date('2026-03-01T09:30:00Z');
    expect(formatCell(when, 'date')).toBe(when);
    expect(formatCell('2026-03-01T09:30:00Z', 'date')).toEqual(when);
    expect(formatCell('2026-03-01T09:30:00Z', 'date')).toBeInstanceOf(Date);
    expect(formatCell('not a date', 'date')).toBe('not a date');
  });

  it('should give text as a string and join a list with commas', () => {
    expect(formatCell(7, 'text')).toBe('7');
    expect(formatCell(['lowFacility', 'negativeDiscrimination'], 'text')).toBe('lowFacility, negativeDiscrimination');
    expect(formatCell('Anita', 'text')).toBe('Anita');
  });
});
