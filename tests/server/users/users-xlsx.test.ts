import { describe, expect, it } from 'vitest';
import { columnIndexes } from '#server/modules/users/users-bulk.ts';
import { checkUncompressedSize, readFirstSheet, SpreadsheetRefused } from '#server/modules/users/users-xlsx.ts';
import { workbook, zipOf } from './bulk-kit.ts';

describe('users-xlsx', () => {
  it('should read the cells people really type: dates, auto-linked e-mails, rich text, formulas and numbers', async () => {
    const file = await workbook(
      ['firstName', 'lastName', 'email', 'userName', 'phoneNumber', 'dateOfBirth'],
      [
        [
          { richText: [{ text: 'As' }, { text: 'ha', font: { bold: true } }] },
          { formula: 'UPPER("patel")', result: 'PATEL' },
          { text: 'asha@example.test', hyperlink: 'mailto:asha@example.test' },
          '  asha  ',
          919876543210,
          new Date(Date.UTC(1998, 6, 21)),
        ],
        ['', '', '', '', '', ''],
        ['Bela', 'Shah', 'bela@example.test', 'bela', '', ''],
      ],
    );
    const { header, rows } = await readFirstSheet(file);
    expect(header).toEqual(['firstName', 'lastName', 'email', 'userName', 'phoneNumber', 'dateOfBirth']);
    expect(rows).toEqual([
      { rowNumber: 2, cells: ['Asha', 'PATEL', 'asha@example.test', 'asha', '919876543210', '1998-07-21'] },
      // trailing empty cells are simply absent
      { rowNumber: 4, cells: ['Bela', 'Shah', 'bela@example.test', 'bela'] },
    ]);
  });

  it('should stop reading at the row limit and refuse a file that is not a workbook', async () => {
    const file = await workbook(['firstName'], [['a'], ['b'], ['c']]);
    await expect(readFirstSheet(file, 2)).rejects.toThrow('The file has more than 2 rows.');
    await expect(readFirstSheet(Buffer.from('PK\u0003\u0004 nothing'))).rejects.toBeInstanceOf(SpreadsheetRefused);
  });

  it('should measure what a ZIP really inflates to, whatever its directory claims', async () => {
    const small = await workbook(['firstName'], [['a']]);
    expect(checkUncompressedSize(small)).toBeGreaterThan(small.length);
    const bomb = zipOf([{ name: 'xl/a.xml', data: Buffer.alloc(3 * 1024 * 1024, 0x41) }]);
    expect(() => checkUncompressedSize(bomb, 2 * 1024 * 1024)).toThrow('The workbook expands to more than 2 MB.');
    expect(checkUncompressedSize(bomb, 4 * 1024 * 1024)).toBe(3 * 1024 * 1024);
    expect(() => checkUncompressedSize(Buffer.from('not a zip at all, just some text'))).toThrow('The file is not a readable .xlsx workbook.');
  });

  it('should map header names to template columns only, ignoring case, order and keys like __proto__', () => {
    const indexes = columnIndexes(['EMAIL', '__proto__', 'firstname', 'constructor', 'userName', 'email']);
    expect([...indexes.entries()]).toEqual([
      ['email', 0],
      ['firstName', 2],
      ['userName', 4],
    ]);
  });
});
