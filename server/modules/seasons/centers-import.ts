import ExcelJS from 'exceljs';
import type { Db, Queryable } from '#server/db/client.ts';
import { AppError, notFound } from '#server/lib/errors.ts';
import { cleanFileName, detectFileType } from '#server/lib/file-types.ts';
import type { Principal } from '#server/plugins/access.ts';
import { validateEmail } from '#server/modules/identity/account-service.ts';
import { checkUncompressedSize, MAX_UPLOAD_BYTES, readFirstSheet, SpreadsheetRefused, streamWorkbook } from '#server/modules/users/users-xlsx.ts';
import { insertCenters, takenCenterCodes, type NewCenter } from './centers-repository.ts';
import { CENTER_LIMITS } from './seasons-schemas.ts';

/**
 * The .xlsx import of exam centers (issue 18: "like users"): the same reader and limits as the
 * users' bulk upload (≤ 5 MB, ≤ 50 MB uncompressed, ≤ 10,000 rows, type checked by content),
 * every row checked, the good ones created in one transaction and the refused ones kept with
 * their reasons for the error file. Centers are few (hundreds to a few thousand), so the import
 * runs in the request instead of a job (docs/decisions/0151).
 */
export const centerColumns = [
  'code',
  'name',
  'address',
  'city',
  'state',
  'capacity',
  'cbtCapable',
  'contactName',
  'contactPhone',
  'contactEmail',
  'isActive',
] as const;
type Column = (typeof centerColumns)[number];
const requiredColumns: readonly Column[] = ['code', 'name', 'city', 'capacity'];
const exampleRow: Record<Column, string> = {
  code: 'AHM-001',
  name: 'Navrangpura Public School',
  address: '12 University Road, Navrangpura',
  city: 'Ahmedabad',
  state: 'Gujarat',
  capacity: '240',
  cbtCapable: 'yes',
  contactName: 'R. Shah',
  contactPhone: '+91 79 2630 0000',
  contactEmail: 'centre@example.org',
  isActive: 'yes',
};
const codePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$/;
const phonePattern = /^[0-9+()\- .]{0,32}$/;

export async function buildCenterTemplate(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Exam Portal';
  const sheet = workbook.addWorksheet('Centers');
  sheet.columns = centerColumns.map((key) => ({ header: key, key, width: Math.max(14, key.length + 6) }));
  sheet.getRow(1).font = { bold: true };
  sheet.addRow(exampleRow);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

function yesNo(value: string, fallback: boolean): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (v === '') return fallback;
  if (['yes', 'y', 'true', '1'].includes(v)) return true;
  if (['no', 'n', 'false', '0'].includes(v)) return false;
  return undefined;
}

interface CheckedRow {
  rowNumber: number;
  cells: Record<Column, string>;
  center?: NewCenter;
  error?: string;
}

/** Checks every row: required cells, formats, limits, duplicates in the file. */
export function checkCenterRows(parsed: { header: string[]; rows: Array<{ rowNumber: number; cells: string[] }> }): CheckedRow[] {
  const indexes = new Map<Column, number>();
  parsed.header.forEach((title, index) => {
    const column = centerColumns.find((c) => c.toLowerCase() === title.trim().toLowerCase());
    if (column && !indexes.has(column)) indexes.set(column, index);
  });
  const missing = requiredColumns.filter((c) => !indexes.has(c));
  if (missing.length) throw new SpreadsheetRefused(`The header row lacks the column(s) ${missing.join(', ')}. Start from the template.`);
  const seen = new Map<string, number>();
  return parsed.rows.map((row) => {
    const cells = {} as Record<Column, string>;
    for (const column of centerColumns) {
      const index = indexes.get(column);
      cells[column] = index === undefined ? '' : (row.cells[index] ?? '').trim().slice(0, 1024);
    }
    const problems: string[] = [];
    for (const column of requiredColumns) if (!cells[column]) problems.push(`${column} is required.`);
    if (centerColumns.every((c) => cells[c] === exampleRow[c])) problems.push("This is the template's example row; replace it with real data.");
    if (cells.code && !codePattern.test(cells.code)) problems.push('code must be 1 to 32 letters, digits, _ . or -, starting with a letter or digit.');
    if (cells.name.length > 200) problems.push('name must be at most 200 characters.');
    if (cells.city.length > 100 || cells.state.length > 100) problems.push('city and state must be at most 100 characters.');
    if (cells.address.length > 500) problems.push('address must be at most 500 characters.');
    const capacity = Number(cells.capacity);
    if (cells.capacity && (!/^\d+$/.test(cells.capacity) || capacity < 1 || capacity > CENTER_LIMITS.capacity)) {
      problems.push(`capacity must be a whole number from 1 to ${CENTER_LIMITS.capacity.toLocaleString('en')}.`);
    }
    const cbt = yesNo(cells.cbtCapable, false);
    if (cbt === undefined) problems.push('cbtCapable must be yes or no.');
    const active = yesNo(cells.isActive, true);
    if (active === undefined) problems.push('isActive must be yes or no.');
    if (!phonePattern.test(cells.contactPhone)) problems.push('contactPhone may hold only digits, spaces and + ( ) - .');
    if (cells.contactEmail && !validateEmail(cells.contactEmail).isValid) problems.push(`"${cells.contactEmail}" is not a valid e-mail address.`);
    if (cells.contactName.length > 200) problems.push('contactName must be at most 200 characters.');
    const key = cells.code.toLowerCase();
    if (key && seen.has(key)) problems.push(`The code is already used in row ${seen.get(key)} of this file.`);
    else if (key) seen.set(key, row.rowNumber);
    if (problems.length) return { rowNumber: row.rowNumber, cells, error: problems.join(' ') };
    return {
      rowNumber: row.rowNumber,
      cells,
      center: {
        code: cells.code,
        name: cells.name,
        address: cells.address,
        city: cells.city,
        state: cells.state,
        capacity,
        cbtCapable: cbt!,
        contactName: cells.contactName,
        contactPhone: cells.contactPhone,
        contactEmail: cells.contactEmail,
        isActive: active!,
      },
    };
  });
}

/** Checks the file, imports its good rows and records the refused ones; answers the counts. */
export async function importCenters(db: Db, p: Principal, file: { fileName: string | undefined; content: Buffer }) {
  const name = cleanFileName(file.fileName, 'centers.xlsx');
  if (file.content.length === 0) throw new AppError(400, `${name} is empty.`);
  if (file.content.length > MAX_UPLOAD_BYTES) throw new AppError(413, 'The file must be at most 5 MB.');
  if (detectFileType(file.content)?.kind !== 'xlsx') throw new AppError(415, `${name} is not an Excel workbook (.xlsx). Start from the template.`);
  let checked: CheckedRow[];
  try {
    checkUncompressedSize(file.content);
    checked = checkCenterRows(await readFirstSheet(file.content));
  } catch (error) {
    if (error instanceof SpreadsheetRefused) throw new AppError(400, error.message, { extra: { reason: 'fileRefused' } });
    throw error;
  }
  if (checked.length === 0) throw new AppError(400, `${name} has no center rows under its header.`, { extra: { reason: 'fileRefused' } });
  return db.transaction(async (tx) => {
    const good = checked.filter((r) => r.center);
    const taken = await takenCenterCodes(
      tx,
      p.tenantId,
      good.map((r) => r.center!.code),
    );
    for (const row of good) if (taken.has(row.center!.code.toLowerCase())) row.error = 'A center with this code already exists; edit it on the Centers screen.';
    const creating = checked.filter((r) => !r.error && r.center);
    // Concurrent imports of one code: the unique index decides; the loser's transaction fails with a 409.
    await insertCenters(
      tx,
      p.tenantId,
      p.userId,
      creating.map((r) => r.center!),
    ).catch((error: unknown) => {
      if ((error as { code?: string }).code === '23505')
        throw new AppError(409, 'Another import created some of these codes at the same time. Upload the file again.');
      throw error;
    });
    const failed = checked.filter((r) => r.error);
    const errors = failed.map((r) => ({ rowNumber: r.rowNumber, cells: r.cells, reason: r.error! }));
    const { rows } = await tx.query<{ id: number }>(
      `insert into center_imports (tenant_id, file_name, total_rows, created_count, failed_count, errors, created_by)
       values ($1, $2, $3, $4, $5, $6, $7) returning id::int as id`,
      [p.tenantId, name, checked.length, creating.length, failed.length, JSON.stringify(errors), p.userId],
    );
    return {
      importId: rows[0].id,
      fileName: name,
      totalRows: checked.length,
      createdCount: creating.length,
      failedCount: failed.length,
      hasErrorFile: failed.length > 0,
      errors: errors.slice(0, 100).map(({ rowNumber, reason }) => ({ rowNumber, reason })),
    };
  });
}

/** The refused rows of an import with their reasons, as .xlsx (the users' error file layout). */
export async function centerErrorFile(db: Queryable, p: Principal, importId: number) {
  const { rows } = await db.query<{ fileName: string; errors: Array<{ rowNumber: number; cells: Record<string, string>; reason: string }> }>(
    `select file_name as "fileName", errors from center_imports where id = $1 and tenant_id = $2`,
    [importId, p.tenantId],
  );
  const found = rows[0];
  if (!found) throw notFound('Import not found.');
  const columns = [
    { header: 'rowNumber', key: 'rowNumber', width: 10 },
    ...centerColumns.map((key) => ({ header: key, key, width: 18 })),
    { header: 'reason', key: 'reason', width: 60 },
  ];
  const stream = streamWorkbook('Errors', columns, async (add) => {
    for (const e of found.errors) {
      const cells: Record<string, string> = {};
      for (const column of centerColumns) cells[column] = typeof e.cells[column] === 'string' ? e.cells[column] : '';
      add({ ...cells, rowNumber: e.rowNumber, reason: e.reason });
    }
  });
  return { stream, fileName: `${found.fileName.replace(/\.xlsx$/i, '')}-errors.xlsx` };
}
