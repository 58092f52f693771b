import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS, ChunkLoadError, loadChunk } from '#src/lib/lazy-chunk.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('loadChunk', () => {
  it('should resolve with the module when the import succeeds', async () => {
    await expect(loadChunk(async () => ({ default: 1 }))).resolves.toEqual({ default: 1 });
  });

  it('should reject with a ChunkLoadError carrying the given message when the import fails', async () => {
    const error = await loadChunk(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')), 'Chunk loading failed.').catch((e) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error.name).toBe('ChunkLoadError');
    expect(error.message).toBe('Chunk loading failed.');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('should give up after 120 seconds', async () => {
    vi.useFakeTimers();
    const pending = loadChunk(() => new Promise(() => {}));
    const settled = vi.fn();
    pending.catch(settled);
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
    await vi.advanceTimersByTimeAsync(119_999);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toHaveBeenCalledWith(expect.any(ChunkLoadError));
  });
});
