/**
 * Cold start: `npm start` on a fresh DATA_DIR (PGlite initdb, migrations, seed) until `/`
 * answers 200, then a warm restart on the same directory. Prints milliseconds per run.
 * Budget: cold start under 15 s (a breach makes `npm run bench` exit non-zero).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '#tests/e2e/support/server.ts';

const root = path.resolve(import.meta.dirname, '../..');
const BUDGET_MS = 15_000;

/** Whether any process of this process group is still alive (signal 0 only checks). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops `npm start` and everything it started. npm exits as soon as it passes the signal on,
 * while the server is still closing PGlite and writing its data folder; removing the folder
 * then fails with ENOTEMPTY. So wait until the whole process group is gone, not npm.
 */
export async function stopGroup(pgid: number, graceMs = 15_000): Promise<void> {
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) {
      try {
        process.kill(-pgid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function timeStart(dataDir: string): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ADMIN_PASSWORD: 'bench password 1234', DATABASE_URL: '' },
    stdio: 'ignore',
    detached: true,
  });
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/`);
        if (res.status === 200) return performance.now() - started;
      } catch {
        // not up yet
      }
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode} before serving`);
      if (performance.now() - started > 60_000) throw new Error('server did not start within 60 s');
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    // detached: the child leads its own process group (npm, the start script, the server).
    await stopGroup(child.pid!);
  }
}

export async function benchStartup(runs = 3) {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-start-'));
    try {
      cold.push(await timeStart(dir));
      warm.push(await timeStart(dir));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const fmt = (xs: number[]) => xs.map((x) => `${(x / 1000).toFixed(2)} s`).join(', ');
  const met = cold.every((ms) => ms < BUDGET_MS);
  if (!met) process.exitCode = 1;
  console.log(`startup: cold npm start → GET / 200 (fresh DATA_DIR): ${fmt(cold)}  (budget 15 s) ${met ? '✓' : '✗ budget breached'}`);
  console.log(`startup: warm restart on the same DATA_DIR:          ${fmt(warm)}`);
  return { cold, warm };
}
