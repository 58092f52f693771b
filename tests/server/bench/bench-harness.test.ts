import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { formatLoad } from '../../../scripts/bench/load.ts';
import { stopGroup } from '../../../scripts/bench/startup.ts';

/** Issue 22: the benches must be trustworthy (scripts/bench/). */
describe('bench harness', () => {
  const saved = process.exitCode;
  afterEach(() => {
    process.exitCode = saved;
  });

  const run = { label: 'x', p50: 5, p99: 40, max: 60, rps: 100, requests: 1000, failures: 0 };

  it('should make the bench exit non-zero when a run breaches its budget, and not otherwise', () => {
    process.exitCode = undefined;
    expect(formatLoad(run, 50)).toContain('✓');
    expect(formatLoad(run)).not.toContain('budget');
    expect(process.exitCode).toBeUndefined();
    expect(formatLoad(run, 30)).toContain('✗ budget 30 ms');
    expect(process.exitCode).toBe(1);
    process.exitCode = undefined;
    formatLoad({ ...run, failures: 1 }, 50);
    expect(process.exitCode).toBe(1);
  });

  it('should wait for every process of the group, not only its leader, before going on', async () => {
    // The leader (like npm) exits at once on SIGTERM; its child (like the server) takes 400 ms.
    const child = spawn('sh', ['-c', `sh -c 'trap "sleep 0.4; exit 0" TERM; while :; do sleep 0.05; done' & trap "exit 0" TERM; wait`], {
      detached: true,
      stdio: 'ignore',
    });
    await new Promise((r) => setTimeout(r, 300));
    const leaderGone = new Promise<number>((resolve) => child.once('exit', () => resolve(Date.now())));
    const started = Date.now();
    await stopGroup(child.pid!);
    const stoppedAfter = Date.now() - started;
    expect(Date.now() - (await leaderGone)).toBeGreaterThanOrEqual(0);
    expect(stoppedAfter).toBeGreaterThanOrEqual(350);
    expect(() => process.kill(-child.pid!, 0)).toThrow();
  });
});
