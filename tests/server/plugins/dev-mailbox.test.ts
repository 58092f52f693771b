import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { buildApp } from '#server/app.ts';
import { createTestDatabase } from '#tests/setup/test-database.ts';
import { testConfig } from '#tests/setup/test-app.ts';

/** Issue 23 "Secrets and defaults": the dev mailbox shows reset links, so it is loopback-only. */
async function withApp(env: Record<string, string>, run: (app: Awaited<ReturnType<typeof buildApp>>, log: string[]) => Promise<void>) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'exam-portal-mailbox-'));
  const database = await createTestDatabase('pglite');
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = await buildApp({ config: testConfig(dataDir, env), db: database.db, logger: { level: 'warn', stream }, runJobs: false });
  try {
    await app.ready();
    await run(app, lines);
  } finally {
    await app.close();
    await database.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('dev mailbox', () => {
  it('should answer loopback clients only, and warn at start that it is on', async () => {
    await withApp({ HOST: '127.0.0.1' }, async (app, log) => {
      expect((await app.inject({ method: 'GET', url: '/dev/mailbox.json', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/dev/mailbox.json', remoteAddress: '::1' })).statusCode).toBe(200);
      for (const remoteAddress of ['10.0.0.7', '192.168.1.20', '::ffff:10.0.0.7', '2001:db8::1']) {
        expect((await app.inject({ method: 'GET', url: '/dev/mailbox.json', remoteAddress })).statusCode).toBe(404);
        expect((await app.inject({ method: 'GET', url: '/dev/mailbox', remoteAddress })).statusCode).toBe(404);
      }
      expect(log.join('')).toContain('dev mailbox on');
    });
  });

  it('should stay off when HOST is not loopback, unless DEV_MAILBOX=1, and then still answer loopback only', async () => {
    await withApp({ HOST: '0.0.0.0' }, async (app, log) => {
      expect((await app.inject({ method: 'GET', url: '/dev/mailbox.json', remoteAddress: '127.0.0.1' })).statusCode).toBe(404);
      expect(log.join('')).toContain('dev mailbox off: HOST 0.0.0.0 is not a loopback address');
    });
    await withApp({ HOST: '0.0.0.0', DEV_MAILBOX: '1' }, async (app) => {
      expect((await app.inject({ method: 'GET', url: '/dev/mailbox.json', remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/dev/mailbox.json', remoteAddress: '10.0.0.7' })).statusCode).toBe(404);
    });
  });
});
