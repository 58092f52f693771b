/**
 * Cold start: `npm start` on a fresh DATA_DIR (PGlite initdb, migrations, seed) until `/`
 * answers 200, then a warm restart on the same directory. Prints milliseconds per run.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '#tests/e2e/support/server.ts';

const root = path.resolve(import.meta.dirname, '../..');

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
      if (performance.now() - started > 60_000) throw new Error('server did not start within 60 s');
      await new Promise((r) => setTimeout(r, 25));
    }
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
}

export async function benchStartup(runs = 3) {
  const cold: number[] = [];
  const warm: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const dir = await mkdtemp(path.join(tmpdir(), 'bench-start-'));
    cold.push(await timeStart(dir));
    warm.push(await timeStart(dir));
    await rm(dir, { recursive: true, force: true });
  }
  const fmt = (xs: number[]) => xs.map((x) => `${(x / 1000).toFixed(2)} s`).join(', ');
  console.log(`startup: cold npm start → GET / 200 (fresh DATA_DIR): ${fmt(cold)}  (budget 15 s)`);
  console.log(`startup: warm restart on the same DATA_DIR:          ${fmt(warm)}`);
  return { cold, warm };
}
