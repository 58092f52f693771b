import { PassThrough, Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';

/**
 * Excel files in and out (SECURITY.md "Input and files"): read with exceljs' streaming reader
 * (never the `xlsx` package), within 5 MB uploaded, 50 MB uncompressed and 10,000 rows; cells
 * written to exports are escaped so a spreadsheet never runs them as formulas.
 */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;
export const MAX_UNCOMPRESSED_BYTES = 50 * 1024 * 1024;
export const MAX_UPLOAD_ROWS = 10_000;
export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Cells starting with = + - @, tab or carriage return would be formulas in Excel: prefix them with '. */
/**
 * For CSV only: a CSV cell is re-parsed by the spreadsheet and may become a formula. An .xlsx
 * cell written as a typed string is never evaluated, so .xlsx exports keep values as they are
 * (issue 23: phone numbers read "'+91…").
 */
export function escapeCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export class SpreadsheetRefused extends Error {}

/**
 * Inflates every entry of the ZIP (an .xlsx is one) with a budget of MAX_UNCOMPRESSED_BYTES,
 * so a zip bomb is refused by what it really expands to, not by the sizes it claims.
 */
export function checkUncompressedSize(buffer: Buffer, budget = MAX_UNCOMPRESSED_BYTES): number {
  const eocdSignature = 0x06054b50;
  let eocd = -1;
  for (let i = buffer.length - 22; i >= Math.max(0, buffer.length - 22 - 65_535); i -= 1) {
    if (buffer.readUInt32LE(i) === eocdSignature) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new SpreadsheetRefused('The file is not a readable .xlsx workbook.');
  const entries = buffer.readUInt16LE(eocd + 10);
  let offset = buffer.readUInt32LE(eocd + 16);
  if (entries === 0xffff || offset === 0xffffffff) throw new SpreadsheetRefused('The workbook is too large (ZIP64 is not accepted).');
  let total = 0;
  for (let n = 0; n < entries; n += 1) {
    if (offset + 46 > buffer.length || buffer.readUInt32LE(offset) !== 0x02014b50) throw new SpreadsheetRefused('The file is not a readable .xlsx workbook.');
    const method = buffer.readUInt16LE(offset + 10);
    const compressedSize = buffer.readUInt32LE(offset + 20);
    const nameLength = buffer.readUInt16LE(offset + 28);
    const extraLength = buffer.readUInt16LE(offset + 30);
    const commentLength = buffer.readUInt16LE(offset + 32);
    const localOffset = buffer.readUInt32LE(offset + 42);
    if (localOffset + 30 > buffer.length || buffer.readUInt32LE(localOffset) !== 0x04034b50)
      throw new SpreadsheetRefused('The file is not a readable .xlsx workbook.');
    const dataStart = localOffset + 30 + buffer.readUInt16LE(localOffset + 26) + buffer.readUInt16LE(localOffset + 28);
    const data = buffer.subarray(dataStart, dataStart + compressedSize);
    if (method === 0) total += data.length;
    else if (method === 8) {
      try {
        total += inflateRawSync(data, { maxOutputLength: Math.max(1, budget - total) }).length;
      } catch (error) {
        if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' || error instanceof RangeError) {
          throw new SpreadsheetRefused(`The workbook expands to more than ${budget / 1024 / 1024} MB.`);
        }
        throw new SpreadsheetRefused('The file is not a readable .xlsx workbook.');
      }
    } else throw new SpreadsheetRefused('The workbook uses an unsupported compression method.');
    if (total > budget) throw new SpreadsheetRefused(`The workbook expands to more than ${budget / 1024 / 1024} MB.`);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return total;
}

/** The text of a cell whatever exceljs made of it (rich text, hyperlink, formula result, date). */
export function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value && Array.isArray(value.richText))
      return value.richText
        .map((part) => part.text)
        .join('')
        .trim();
    if ('text' in value && value.text !== undefined) return cellText(value.text as ExcelJS.CellValue);
    if ('result' in value) return cellText((value as { result?: ExcelJS.CellValue }).result ?? null);
    if ('error' in value) return '';
    return '';
  }
  return String(value).trim();
}

/**
 * The rows of the first worksheet as arrays of cell texts, the header first. Stops with a
 * refusal at `maxRows` data rows so a huge sheet costs no more than that.
 */
export async function readFirstSheet(
  buffer: Buffer,
  maxRows = MAX_UPLOAD_ROWS,
): Promise<{ header: string[]; rows: Array<{ rowNumber: number; cells: string[] }> }> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([buffer]), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'cache',
    entries: 'ignore',
  });
  let header: string[] | undefined;
  const rows: Array<{ rowNumber: number; cells: string[] }> = [];
  try {
    for await (const sheet of reader) {
      for await (const row of sheet) {
        const values = (row.values as ExcelJS.CellValue[]).slice(1).map(cellText);
        if (!header) {
          header = values;
          continue;
        }
        if (values.every((v) => v === '')) continue;
        if (rows.length >= maxRows) throw new SpreadsheetRefused(`The file has more than ${maxRows.toLocaleString('en')} rows.`);
        rows.push({ rowNumber: row.number, cells: values });
      }
      break; // the first worksheet only
    }
  } catch (error) {
    if (error instanceof SpreadsheetRefused) throw error;
    throw new SpreadsheetRefused('The file is not a readable .xlsx workbook.');
  }
  if (!header) throw new SpreadsheetRefused('The workbook has no header row.');
  return { header, rows };
}

/** Writes rows to an .xlsx streamed as it is produced (exports of any size in flat memory). */
export function streamWorkbook(
  sheetName: string,
  columns: Array<{ header: string; key: string; width?: number }>,
  produce: (add: (row: Record<string, string | number | boolean | null>) => void) => Promise<void>,
): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: false, useSharedStrings: false });
  const sheet = workbook.addWorksheet(sheetName);
  sheet.columns = columns;
  (async () => {
    await produce((row) => {
      // Strings go in as typed (shared-string-free inline) strings: Excel shows them, never evaluates them.
      const values: Record<string, string | number | boolean | null> = {};
      for (const { key } of columns) values[key] = row[key] ?? null;
      sheet.addRow(values).commit();
    });
    sheet.commit();
    await workbook.commit();
  })().catch((error) => out.destroy(error as Error));
  return out;
}
