import { crc32, deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { vi, expect } from 'vitest';
import { startJobWorker } from '#server/lib/jobs.ts';
import { BULK_UPLOAD_JOB, readyBulkUploadJobHandler } from '#server/modules/users/users-module.ts';

export const templateHeader = ['firstName', 'lastName', 'email', 'userName', 'phoneNumber', 'dateOfBirth', 'roleName', 'newPassword', 'confirmNewPassword'];

/** An .xlsx with one sheet: the header, then the rows. */
export async function workbook(header: string[], rows: Array<Array<string | number | Date | ExcelJS.CellValue>>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Users');
  sheet.addRow(header);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await book.xlsx.writeBuffer());
}

export async function readWorkbook(buffer: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(buffer as never);
  return book;
}

/** The sheet's rows as arrays of plain values (header first). */
export function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return rows;
}

export function multipart(file: { name: string; content: Buffer }) {
  const boundary = `----users-${Math.random().toString(16).slice(2)}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A ZIP built by hand (deflated entries), for files exceljs would never write: zip bombs. */
export function zipOf(entries: Array<{ name: string; data: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const compressed = deflateRawSync(entry.data, { level: 9 });
    const name = Buffer.from(entry.name);
    const crc = crc32(entry.data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(entry.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, compressed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    // the claimed size may lie; the check inflates for real
    central.writeUInt32LE(Math.min(entry.data.length, 1000), 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + compressed.length;
  }
  const centralDir = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDir.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDir, end]);
}

/** Runs the real job worker until the upload has finished or failed. */
export async function runUploadJobs(app: FastifyInstance, uploadId: string, timeout = 60_000) {
  const log = pino({ level: 'silent' });
  const worker = startJobWorker(
    app.db,
    { [BULK_UPLOAD_JOB]: readyBulkUploadJobHandler({ identity: app.identity, pokeJobs: () => undefined }, log) },
    { log, pollMs: 20 },
  );
  try {
    await vi.waitFor(
      async () => {
        const { rows } = await app.db.query<{ state: string }>(`select state from user_uploads where id = $1`, [uploadId]);
        expect(['finished', 'failed']).toContain(rows[0].state);
      },
      { timeout, interval: 50 },
    );
  } finally {
    await worker.stop();
  }
}
