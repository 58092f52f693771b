/**
 * File types recognised by their content (magic bytes), never by the client's
 * Content-Type or file extension (SECURITY.md "Input and files").
 */
export interface DetectedType {
  mime: string;
  extension: string;
  label: string;
}

const types = {
  pdf: { mime: 'application/pdf', extension: 'pdf', label: 'PDF' },
  png: { mime: 'image/png', extension: 'png', label: 'PNG image' },
  jpeg: { mime: 'image/jpeg', extension: 'jpg', label: 'JPEG image' },
  gif: { mime: 'image/gif', extension: 'gif', label: 'GIF image' },
  webp: { mime: 'image/webp', extension: 'webp', label: 'WebP image' },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extension: 'docx', label: 'Word document' },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: 'xlsx', label: 'Excel workbook' },
  pptx: { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', extension: 'pptx', label: 'PowerPoint presentation' },
  text: { mime: 'text/plain', extension: 'txt', label: 'text' },
  mp3: { mime: 'audio/mpeg', extension: 'mp3', label: 'MP3 audio' },
  wav: { mime: 'audio/wav', extension: 'wav', label: 'WAV audio' },
  ogg: { mime: 'audio/ogg', extension: 'ogg', label: 'Ogg audio' },
} as const satisfies Record<string, DetectedType>;

export type FileKind = keyof typeof types;

function startsWith(buffer: Uint8Array, bytes: number[], offset = 0): boolean {
  if (buffer.length < offset + bytes.length) return false;
  return bytes.every((b, i) => buffer[offset + i] === b);
}

function ascii(buffer: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...buffer.subarray(start, Math.min(end, buffer.length)));
}

/** Office Open XML files are ZIPs whose entry names say what they hold. */
function officeKind(buffer: Uint8Array): FileKind | undefined {
  // Scan the local file headers' names in the first 64 KiB (enough for [Content_Types].xml and the main part).
  const head = Buffer.from(buffer.subarray(0, 65536)).toString('latin1');
  if (!head.includes('[Content_Types].xml')) return undefined;
  if (head.includes('word/')) return 'docx';
  if (head.includes('xl/')) return 'xlsx';
  if (head.includes('ppt/')) return 'pptx';
  return undefined;
}

/** Plain text: valid UTF-8 with no NUL and few control characters. */
function isText(buffer: Uint8Array): boolean {
  const sample = buffer.subarray(0, 8192);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(sample.length < buffer.length ? trimPartialUtf8(sample) : sample);
  } catch {
    return false;
  }
  let control = 0;
  for (const byte of sample) {
    if (byte === 0) return false;
    if (byte < 9 || (byte > 13 && byte < 32)) control += 1;
  }
  return control / Math.max(1, sample.length) < 0.01;
}

/** A sample cut inside a multi-byte character is not invalid UTF-8; drop the partial tail. */
function trimPartialUtf8(sample: Uint8Array): Uint8Array {
  let end = sample.length;
  for (let back = 1; back <= 3 && end - back >= 0; back += 1) {
    const byte = sample[end - back];
    if ((byte & 0xc0) === 0x80) continue;
    const needed = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    if (needed > back) end -= back;
    break;
  }
  return sample.subarray(0, end);
}

export function detectFileType(buffer: Uint8Array): (DetectedType & { kind: FileKind }) | undefined {
  const found = ((): FileKind | undefined => {
    if (startsWith(buffer, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
    if (startsWith(buffer, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
    if (startsWith(buffer, [0xff, 0xd8, 0xff])) return 'jpeg';
    if (ascii(buffer, 0, 6) === 'GIF87a' || ascii(buffer, 0, 6) === 'GIF89a') return 'gif';
    if (ascii(buffer, 0, 4) === 'RIFF' && ascii(buffer, 8, 12) === 'WEBP') return 'webp';
    if (ascii(buffer, 0, 4) === 'RIFF' && ascii(buffer, 8, 12) === 'WAVE') return 'wav';
    if (ascii(buffer, 0, 4) === 'OggS') return 'ogg';
    // MP3: an ID3v2 tag, or an MPEG-1/2 layer III frame header (sync bits and layer).
    if (ascii(buffer, 0, 3) === 'ID3' || (buffer.length > 2 && buffer[0] === 0xff && (buffer[1] & 0xe6) === 0xe2)) return 'mp3';
    if (startsWith(buffer, [0x50, 0x4b, 0x03, 0x04])) return officeKind(buffer);
    if (buffer.length > 0 && isText(buffer)) return 'text';
    return undefined;
  })();
  return found ? { kind: found, ...types[found] } : undefined;
}

/**
 * Text a browser would render as a page or an image if it were ever opened as one: HTML, SVG,
 * XML or anything carrying a script tag (issue 23). Accepted as "text" it could be served,
 * saved or previewed as markup, so it is refused rather than stored.
 */
export function looksLikeMarkup(buffer: Uint8Array): boolean {
  const head = Buffer.from(buffer.subarray(0, 8192))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  if (/^<(!doctype|\?xml|html|svg|head|body|iframe|object|embed|script|style|meta|link|a|img|div|form)\b/.test(head)) return true;
  return /<(script|svg|html|iframe|object|embed|foreignobject)\b|\bjavascript:|\bon[a-z]+\s*=\s*["']/.test(head);
}

/** Extensions under which a text document is stored; any other name gets ".txt" added. */
const SAFE_TEXT_EXTENSIONS = ['txt', 'csv', 'log', 'md'];

/** A text document's stored name never ends in .html, .svg, .js …: opening the download shows text. */
export function safeTextFileName(name: string): string {
  const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
  return SAFE_TEXT_EXTENSIONS.includes(extension) ? name : `${name}.txt`;
}

export function describeKinds(kinds: readonly FileKind[]): string {
  return kinds.map((kind) => types[kind].label).join(', ');
}

/**
 * A Content-Disposition header that survives any file name: an ASCII fallback plus the
 * RFC 5987 encoded original.
 */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_') || 'download';
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** A name safe to store and show: no path, no control characters, bounded length. */
export function cleanFileName(name: string | undefined, fallback: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const cleaned = base
    // eslint-disable-next-line no-control-regex -- control characters are exactly what a file name must lose
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, 200);
  return cleaned || fallback;
}
