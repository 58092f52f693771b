import { describe, expect, it } from 'vitest';
import { attachmentDisposition, cleanFileName, detectFileType } from '#server/lib/file-types.ts';

describe('detectFileType', () => {
  it('should recognise allowed types by their first bytes', () => {
    expect(detectFileType(Buffer.from('%PDF-1.4 ...'))?.kind).toBe('pdf');
    expect(detectFileType(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))?.kind).toBe('jpeg');
    expect(detectFileType(Buffer.from('GIF89a....'))?.kind).toBe('gif');
    expect(detectFileType(Buffer.from('RIFF\x00\x00\x00\x00WEBPVP8 ', 'latin1'))?.kind).toBe('webp');
    expect(detectFileType(Buffer.from('Plain notes, ünïcödé and ✓ marks\n'))?.kind).toBe('text');
  });

  it('should tell Office files apart by the parts inside the ZIP and refuse other ZIPs', () => {
    const zip = (entry: string) =>
      Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from(`....[Content_Types].xml....${entry}document.xml`, 'latin1')]);
    expect(detectFileType(zip('word/'))?.kind).toBe('docx');
    expect(detectFileType(zip('xl/'))?.kind).toBe('xlsx');
    expect(detectFileType(zip('ppt/'))?.kind).toBe('pptx');
    expect(detectFileType(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.from('evil.exe')]))).toBeUndefined();
  });

  it('should refuse binaries and text with NUL bytes', () => {
    expect(detectFileType(Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100)]))).toBeUndefined();
    expect(detectFileType(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]))).toBeUndefined();
    expect(detectFileType(Buffer.from('text\u0000with nul'))).toBeUndefined();
    expect(detectFileType(Buffer.alloc(0))).toBeUndefined();
  });

  it('should accept a text file whose first 8 KiB end inside a multi-byte character', () => {
    const text = Buffer.from('a'.repeat(8191) + 'é and more');
    expect(detectFileType(text)?.kind).toBe('text');
  });
});

describe('file names', () => {
  it('should strip paths and control characters and fall back when nothing is left', () => {
    expect(cleanFileName('C:\\Users\\x\\report.pdf', 'doc')).toBe('report.pdf');
    expect(cleanFileName('../../etc/passwd', 'doc')).toBe('passwd');
    expect(cleanFileName('\u0000\u0007', 'doc')).toBe('doc');
    expect(cleanFileName(undefined, 'doc')).toBe('doc');
  });

  it('should build a Content-Disposition with an ASCII fallback and the encoded original', () => {
    expect(attachmentDisposition('notes.txt')).toBe(`attachment; filename="notes.txt"; filename*=UTF-8''notes.txt`);
    expect(attachmentDisposition('परीक्षा.pdf')).toMatch(/^attachment; filename="_+\.pdf"; filename\*=UTF-8''%E0%A4%AA/);
  });
});
