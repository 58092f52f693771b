import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';

const root = path.resolve(import.meta.dirname, '../../..');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcessWithoutNullStreams;
  /** Everything the server printed (stdout + stderr), for assertions and failure reports. */
  output(): string;
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL: the crash case. */
  kill(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Reuse a data directory (restart tests); otherwise a fresh temporary one. */
  dataDir?: string;
  port?: number;
  /** How long start-up may take (demo data on a busy machine takes longer); 60 s by default. */
  startupTimeoutMs?: number;
}

/**
 * Starts `server/main.ts` as its own process on 127.0.0.1 and a free port, exactly as
 * `npm start` does. The server exits by itself when this test process goes away (stdin closes).
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'exam-portal-e2e-')));
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      ADMIN_EMAIL: TEST_ADMIN_EMAIL,
      ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      EXIT_ON_STDIN_CLOSE: '1',
      DATABASE_URL: '',
      ...options.env,
    },
    stdio: 'pipe',
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const deadline = Date.now() + (options.startupTimeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start-up (${child.exitCode}):\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within ${(options.startupTimeoutMs ?? 60_000) / 1000} s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return child.exitCode;
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export async function removeDataDir(dir: string) {
  await rm(dir, { recursive: true, force: true });
}

/**
 * A GET of the test server's API as a signed-in user (and within a project when given), for a
 * test that reads back what the screens stored; a failure throws with the server's answer.
 */
export async function getApi<T>(server: RunningServer, token: string, url: string, project?: number): Promise<T> {
  const res = await fetch(`${server.url}/api${url}`, {
    headers: { authorization: `Bearer ${token}`, tenant: 'root', ...(project ? { ProjectId: String(project) } : {}) },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}: ${text}`);
  return JSON.parse(text) as T;
}
