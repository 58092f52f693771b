import { afterEach, describe, expect, it, vi } from 'vitest';
import { WorkspaceCache } from '#server/plugins/workspace-context.ts';

describe('WorkspaceCache', () => {
  afterEach(() => vi.useRealTimers());

  it('should answer from the cache within the TTL and load again after it', async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const cache = new WorkspaceCache(2000);
    let loads = 0;
    const load = async () => ({ n: (loads += 1) });
    expect(await cache.get('k', 7, load)).toEqual({ n: 1 });
    vi.setSystemTime(1_001_999);
    expect(await cache.get('k', 7, load)).toEqual({ n: 1 });
    vi.setSystemTime(1_002_001);
    expect(await cache.get('k', 7, load)).toEqual({ n: 2 });
  });

  it('should load again at once after the project is invalidated, and only for that project', async () => {
    const cache = new WorkspaceCache(60_000);
    let loads = 0;
    const load = async () => (loads += 1);
    await cache.get('a', 1, load);
    await cache.get('b', 2, load);
    cache.invalidateProject(1);
    expect(await cache.get('a', 1, load)).toBe(3);
    expect(await cache.get('b', 2, load)).toBe(2);
  });

  it('should never keep a refusal, and keep nothing with a TTL of 0', async () => {
    const cache = new WorkspaceCache(60_000);
    let answer: number | undefined;
    expect(await cache.get('k', 1, async () => answer)).toBeUndefined();
    answer = 5;
    expect(await cache.get('k', 1, async () => answer)).toBe(5);
    const off = new WorkspaceCache(0);
    let loads = 0;
    await off.get('k', 1, async () => (loads += 1));
    await off.get('k', 1, async () => (loads += 1));
    expect(loads).toBe(2);
  });
});
