import { lazy, type ComponentType } from 'react';

/** A script chunk that failed to load (spec §8); the fallback error screen shows. */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError';
}

/** Spec §9: script chunk load time-out. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * Loads a chunk, failing with ChunkLoadError when the import rejects or takes longer than
 * 120 s. `message` is the error text ('Chunk loading failed.' for the main chunk).
 */
export function loadChunk<T>(importer: () => Promise<T>, message = 'Loading chunk failed.'): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError(message)), CHUNK_LOAD_TIMEOUT_MS);
    importer().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (cause) => {
        clearTimeout(timer);
        reject(Object.assign(new ChunkLoadError(message), { cause }));
      },
    );
  });
}

/** React.lazy over loadChunk, for route components exported as default. */
export function lazyChunk<P extends object>(importer: () => Promise<{ default: ComponentType<P> }>, message?: string) {
  return lazy(() => loadChunk(importer, message));
}
