import type { AxiosInstance, AxiosRequestConfig } from 'axios';
import type { ServiceKey } from '#src/lib/config.ts';
import { getHttpClient } from './api.ts';

/** Spec §9: stream progress moves in chunks of this many bytes. */
export const TRANSFER_CHUNK_BYTES = 65_536;

export interface TransferProgress {
  /** Bytes moved so far: a multiple of 65536 until the last report, which is the whole size. */
  loaded: number;
  /** The whole size, when known. */
  total: number | null;
  /** loaded / total, when the total is known. */
  fraction: number | null;
}

export type ProgressListener = (progress: TransferProgress) => void;

/**
 * Turns byte counts into progress reports at every 65536-byte boundary and one at the end
 * (docs/decisions/0017), however the browser or the network slices the bytes.
 */
export function chunkedProgress(onProgress: ProgressListener | undefined, chunk = TRANSFER_CHUNK_BYTES) {
  let reported = 0;
  let total: number | null = null;
  const emit = (loaded: number) => {
    reported = loaded;
    onProgress?.({ loaded, total, fraction: total ? Math.min(1, loaded / total) : null });
  };
  return {
    setTotal(value: number | null | undefined) {
      if (typeof value === 'number' && value > 0) total = value;
    },
    update(loaded: number) {
      while (loaded - reported >= chunk) emit(reported + chunk);
    },
    finish(loaded: number) {
      if (total === null) total = loaded;
      if (loaded > reported || reported === 0) emit(loaded);
    },
  };
}

/** Reads a byte stream to a Blob, reporting progress per 65536 bytes. */
export async function readStream(
  stream: ReadableStream<Uint8Array>,
  options: { total: number | null; type: string; onProgress?: ProgressListener; chunk?: number },
): Promise<Blob> {
  const progress = chunkedProgress(options.onProgress, options.chunk);
  progress.setTotal(options.total);
  const parts: BlobPart[] = [];
  let loaded = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value as BlobPart);
    loaded += value.byteLength;
    progress.update(loaded);
  }
  progress.finish(loaded);
  return new Blob(parts, { type: options.type });
}

/** The file name a response offers (RFC 6266: `filename*` in UTF-8 first, then `filename`). */
export function filenameFromContentDisposition(header: string | null | undefined): string | null {
  if (!header) return null;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;]+)/.exec(header);
  if (!plain) return null;
  const value = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1].trim();
  return value || null;
}

export interface DownloadOptions extends Pick<AxiosRequestConfig, 'params' | 'data' | 'signal' | 'showErrors' | 'anonymous' | 'workspace'> {
  url: string;
  /** Spec §7 downloads are POSTs; GET works too. */
  method?: 'GET' | 'POST';
  onProgress?: ProgressListener;
}

export interface DownloadResult {
  blob: Blob;
  /** From Content-Disposition; null when the server named none. */
  filename: string | null;
  contentType: string | null;
}

function headerOf(headers: unknown, name: string): string | null {
  const value = (headers as { get?: (n: string) => unknown })?.get?.(name) ?? (headers as Record<string, unknown>)?.[name];
  return value == null ? null : String(value);
}

/**
 * Downloads with progress through a given client. The body is read as a stream (axios's fetch
 * adapter) so progress moves per 65536 bytes; the result is the Blob and the offered file name.
 */
export async function downloadWith(client: AxiosInstance, options: DownloadOptions, config: AxiosRequestConfig = {}): Promise<DownloadResult> {
  const { onProgress, method = 'POST', ...rest } = options;
  const response = await client.request<ReadableStream<Uint8Array> | Blob>({ ...config, ...rest, method, responseType: 'stream' });
  const contentType = headerOf(response.headers, 'content-type');
  const lengthHeader = headerOf(response.headers, 'content-length');
  const total = lengthHeader !== null && /^\d+$/.test(lengthHeader) ? Number(lengthHeader) : null;
  const data = response.data;
  let blob: Blob;
  if (data instanceof Blob) {
    // A runtime without response streams hands over the whole body at once.
    const progress = chunkedProgress(onProgress);
    progress.setTotal(total ?? data.size);
    progress.update(data.size);
    progress.finish(data.size);
    blob = data;
  } else {
    blob = await readStream(data, { total, type: contentType ?? '', onProgress });
  }
  return { blob, filename: filenameFromContentDisposition(headerOf(response.headers, 'content-disposition')), contentType };
}

/** A typed download from a service: `const { blob, filename } = await download('userService', { url: '/users/downloaduserlist' })`. */
export async function download(service: ServiceKey, options: DownloadOptions): Promise<DownloadResult> {
  return downloadWith(await getHttpClient(service), options, { adapter: 'fetch' });
}

export interface UploadOptions extends Pick<AxiosRequestConfig, 'params' | 'signal' | 'showErrors'> {
  url: string;
  form: FormData;
  method?: 'POST' | 'PUT';
  onProgress?: ProgressListener;
}

/**
 * Uploads a multipart form with progress through a given client. Browsers report upload
 * progress in their own slices; it is reported here per 65536 bytes and once at the end.
 */
export async function uploadWith<T>(client: AxiosInstance, options: UploadOptions): Promise<T> {
  const { onProgress, form, method = 'POST', ...rest } = options;
  const progress = chunkedProgress(onProgress);
  let sent = 0;
  let size = 0;
  const response = await client.request<T>({
    ...rest,
    method,
    data: form,
    multipart: true,
    onUploadProgress: (event) => {
      progress.setTotal(event.total);
      if (event.total) size = event.total;
      sent = event.loaded;
      progress.update(event.loaded);
    },
  });
  // Done: the whole body went out (the last report is the full size when the browser told it).
  if (size || sent) progress.finish(Math.max(size, sent));
  return response.data;
}

export async function upload<T>(service: ServiceKey, options: UploadOptions): Promise<T> {
  return uploadWith<T>(await getHttpClient(service), options);
}
