import { describe, expect, it } from 'vitest';
import { removeDataDir, startServer } from './support/server.ts';

async function persistSecret(url: string): Promise<string> {
  const body = await (await fetch(`${url}/config.js`)).text();
  return JSON.parse(/__APP_CONFIG__ = (.*);/s.exec(body)![1]).persistSecret;
}

describe('server process lifecycle', () => {
  it('should keep its PGlite data across a SIGTERM restart on the same DATA_DIR', async () => {
    const first = await startServer({ env: { ADMIN_PASSWORD: '' } });
    try {
      expect(first.output()).toMatch(/First start: administrator \S+ created with password \S{20,}/);
      const secret = await persistSecret(first.url);
      expect(await first.stop()).toBe(0);

      const second = await startServer({ dataDir: first.dataDir, port: first.port, env: { ADMIN_PASSWORD: '' } });
      try {
        expect(second.output()).not.toContain('First start');
        expect(await persistSecret(second.url)).toBe(secret);
        const health = await (await fetch(`${second.url}/api/health`)).json();
        expect(health).toMatchObject({ status: 'Healthy', database: { kind: 'pglite' } });
      } finally {
        expect(await second.stop()).toBe(0);
      }
    } finally {
      await first.kill();
      await removeDataDir(first.dataDir);
    }
  });
});
