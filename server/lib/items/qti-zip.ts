import path from 'node:path/posix';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { QtiInputError } from './qti-xml.ts';

/**
 * Reading and writing IMS content packages (zip) with yauzl / yazl, guarded
 * (docs/decisions/0121): the entry count is checked from the central directory before anything
 * is inflated; every name must stay inside the package (no absolute path, no `..`, no
 * backslash, no drive letter); declared sizes are checked against the limits and the
 * compression ratio before inflating, and the bytes actually inflated are counted against the
 * declared size and the limits while inflating, so a zip bomb stops at the first byte too many.
 */
export const ZIP_LIMITS = {
  packageBytes: 200 * 1024 * 1024,
  entries: 10_000,
  entryBytes: 50 * 1024 * 1024,
  totalBytes: 500 * 1024 * 1024,
  /** Inflated/compressed above this (for entries over 1 MiB) is refused as a likely bomb. */
  ratio: 100,
} as const;
export type ZipLimits = { [K in keyof typeof ZIP_LIMITS]: number };

const MiB = 1024 * 1024;

/** A package path that stays inside the package, or null. */
export function safeEntryPath(name: string): string | null {
  if (name.length === 0 || name.length > 1024) return null;
  if (name.includes('\\') || name.includes('\0') || name.startsWith('/') || /^[A-Za-z]:/.test(name)) return null;
  const normalized = path.normalize(name);
  if (normalized.startsWith('../') || normalized === '..' || normalized.startsWith('/')) return null;
  if (normalized.split('/').some((part) => part === '..')) return null;
  return normalized;
}

function open(buffer: Buffer): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) => {
    // strictFileNames off: our own check below names the offending entry in its message.
    yauzl.fromBuffer(buffer, { lazyEntries: true, validateEntrySizes: true, decodeStrings: false, strictFileNames: false }, (error, zip) =>
      error ? reject(new QtiInputError(`not a readable zip file: ${error.message}`)) : resolve(zip),
    );
  });
}

function inflate(zip: yauzl.ZipFile, entry: yauzl.Entry, name: string, budget: { left: number }, limits: ZipLimits): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error) return reject(new QtiInputError(`cannot read ${name}: ${error.message}`));
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > entry.uncompressedSize) {
          stream.destroy();
          reject(new QtiInputError(`${name} inflates beyond its declared size of ${entry.uncompressedSize} bytes; refused as a zip bomb`));
        } else if (size > limits.entryBytes || size > budget.left) {
          stream.destroy();
          reject(new QtiInputError(`${name} inflates beyond the size limits; refused as a zip bomb`));
        } else {
          chunks.push(chunk);
        }
      });
      stream.on('error', (e: Error) =>
        reject(
          new QtiInputError(
            /too many bytes|too few bytes/.test(e.message)
              ? `${name} does not match its declared size (${e.message}); refused as a zip bomb`
              : `cannot read ${name}: ${e.message}`,
          ),
        ),
      );
      stream.on('end', () => {
        budget.left -= size;
        resolve(Buffer.concat(chunks, size));
      });
    });
  });
}

/** The files of a zip, by normalized path. Throws QtiInputError with a clear message on anything unsafe. */
export async function readZip(buffer: Buffer, limits: ZipLimits = ZIP_LIMITS): Promise<Map<string, Buffer>> {
  if (buffer.byteLength > limits.packageBytes) {
    throw new QtiInputError(`the package is ${buffer.byteLength} bytes; at most ${limits.packageBytes} are accepted`);
  }
  const zip = await open(buffer);
  if (zip.entryCount > limits.entries) {
    zip.close();
    throw new QtiInputError(`the package has ${zip.entryCount} entries; at most ${limits.entries} are accepted`);
  }
  const files = new Map<string, Buffer>();
  const budget = { left: limits.totalBytes };
  let declaredTotal = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (e: Error) => reject(e instanceof QtiInputError ? e : new QtiInputError(`not a readable zip file: ${e.message}`)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        const raw = Buffer.isBuffer(entry.fileName) ? (entry.fileName as Buffer).toString('utf8') : String(entry.fileName);
        const step = async () => {
          if (raw.endsWith('/')) return;
          const name = safeEntryPath(raw);
          if (!name) throw new QtiInputError(`unsafe path in the package: "${raw.slice(0, 200)}"`);
          if (files.has(name)) throw new QtiInputError(`the package holds "${name}" twice`);
          if (entry.isEncrypted()) throw new QtiInputError(`${name} is encrypted`);
          if (entry.uncompressedSize > limits.entryBytes) {
            throw new QtiInputError(`${name} declares ${entry.uncompressedSize} bytes; an entry may have at most ${limits.entryBytes}`);
          }
          declaredTotal += entry.uncompressedSize;
          if (declaredTotal > limits.totalBytes) throw new QtiInputError(`the package declares more than ${limits.totalBytes} bytes in total`);
          const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
          if (entry.uncompressedSize > MiB && ratio > limits.ratio) {
            throw new QtiInputError(`${name} would inflate ${Math.round(ratio)}-fold; refused as a zip bomb`);
          }
          files.set(name, await inflate(zip, entry, name, budget, limits));
        };
        step().then(() => zip.readEntry(), reject);
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return files;
}

/** A fixed date, so the same content always zips to the same bytes. */
const EPOCH = new Date(Date.UTC(2000, 0, 1));

export function writeZip(files: ReadonlyArray<{ path: string; data: Buffer }>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const file of files) zip.addBuffer(file.data, file.path, { mtime: EPOCH, compress: !/\.(png|jpe?g|gif|webp|mp3|mp4|ogg|webm|zip)$/i.test(file.path) });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}
