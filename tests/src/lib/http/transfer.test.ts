import axios from 'axios';
import { describe, expect, it } from 'vitest';
import {
  TRANSFER_CHUNK_BYTES,
  chunkedProgress,
  downloadWith,
  filenameFromContentDisposition,
  readStream,
  uploadWith,
  type TransferProgress,
} from '#src/lib/http/transfer.ts';
import { fakeServer } from './support/fake-server.ts';

/** A stream delivering `sizes` bytes in pieces of those sizes. */
function streamOf(sizes: number[]) {
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i === sizes.length) return controller.close();
      controller.enqueue(new Uint8Array(sizes[i]).fill(i + 1));
      i += 1;
    },
  });
}

describe('chunkedProgress', () => {
  it('should report at every 65536-byte boundary and once at the end', () => {
    expect(TRANSFER_CHUNK_BYTES).toBe(65536);
    const reports: TransferProgress[] = [];
    const progress = chunkedProgress((p) => reports.push(p));
    progress.setTotal(200_000);
    progress.update(10_000);
    progress.update(140_000);
    progress.update(199_999);
    progress.finish(200_000);
    expect(reports).toEqual([
      { loaded: 65536, total: 200_000, fraction: 65536 / 200_000 },
      { loaded: 131072, total: 200_000, fraction: 131072 / 200_000 },
      { loaded: 196608, total: 200_000, fraction: 196608 / 200_000 },
      { loaded: 200_000, total: 200_000, fraction: 1 },
    ]);
  });

  it('should take the final size as the total when none was known', () => {
    const reports: TransferProgress[] = [];
    const progress = chunkedProgress((p) => reports.push(p));
    progress.update(70_000);
    progress.finish(70_000);
    expect(reports).toEqual([
      { loaded: 65536, total: null, fraction: null },
      { loaded: 70_000, total: 70_000, fraction: 1 },
    ]);
  });
});

describe('readStream', () => {
  it('should assemble the bytes and report per 65536 bytes however the network slices them', async () => {
    const loaded: number[] = [];
    const blob = await readStream(streamOf([1000, 150_000, 30_000, 5]), {
      total: 181_005,
      type: 'text/csv',
      onProgress: (p) => loaded.push(p.loaded),
    });
    expect(blob.size).toBe(181_005);
    expect(blob.type).toBe('text/csv');
    expect(loaded).toEqual([65536, 131072, 181_005]);
    const bytes = new Uint8Array(await blob.arrayBuffer());
    expect([bytes[0], bytes[999], bytes[1000], bytes[151_000], bytes[181_004]]).toEqual([1, 1, 2, 3, 4]);
  });
});

describe('filenameFromContentDisposition', () => {
  it.each([
    ['attachment; filename="users.xlsx"', 'users.xlsx'],
    ['attachment; filename=errors.csv', 'errors.csv'],
    ['attachment; filename="ticket.pdf"; filename*=UTF-8\'\'r%C3%A9sum%C3%A9%20v2.pdf', 'résumé v2.pdf'],
    ['attachment; filename="quote\\"d.txt"', 'quote"d.txt'],
    ['inline', null],
    [null, null],
  ])('should read %s as %s', (header, expected) => {
    expect(filenameFromContentDisposition(header)).toBe(expected);
  });
});

describe('downloadWith', () => {
  it('should return the blob and the offered file name, with progress per 65536 bytes', async () => {
    const { adapter, seen } = fakeServer(() => ({
      status: 200,
      data: streamOf([65536, 65536, 100]),
      headers: {
        'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        'content-length': '131172',
        'content-disposition': 'attachment; filename="user-list.xlsx"',
      },
    }));
    const client = axios.create({ adapter });
    const reports: TransferProgress[] = [];
    const result = await downloadWith(client, { url: '/users/downloaduserlist', data: { keyword: '' }, onProgress: (p) => reports.push(p) });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/users/downloaduserlist', data: { keyword: '' } });
    expect(result.filename).toBe('user-list.xlsx');
    expect(result.contentType).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(result.blob.size).toBe(131_172);
    expect(reports.map((r) => [r.loaded, r.total])).toEqual([
      [65536, 131_172],
      [131072, 131_172],
      [131_172, 131_172],
    ]);
  });
});

describe('uploadWith', () => {
  it('should send the form as multipart and report progress per 65536 bytes and at the end', async () => {
    const { adapter, seen } = fakeServer((_request, config) => {
      // What a browser reports while sending 150000 bytes, in its own slices.
      for (const loaded of [20_000, 70_000, 140_000, 150_000]) config.onUploadProgress?.({ loaded, total: 150_000, bytes: 0, lengthComputable: true });
      return { status: 200, data: { jobId: 12 } };
    });
    const client = axios.create({ adapter });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(150_000)]), 'users.xlsx');
    const reports: number[] = [];
    const result = await uploadWith<{ jobId: number }>(client, {
      url: '/users/uploadusers',
      params: { RedirectUrl: 'http://x/' },
      form,
      onProgress: (p) => reports.push(p.loaded),
    });
    expect(result).toEqual({ jobId: 12 });
    expect(seen[0].data).toBe(form);
    expect(reports).toEqual([65536, 131072, 150_000]);
  });
});
