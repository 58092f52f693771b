import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD } from '#tests/setup/test-database.ts';
import { removeDataDir, startServer, type RunningServer } from './support/server.ts';
import { signInOverHttp } from './support/sign-in.ts';

let server: RunningServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
  if (server) await removeDataDir(server.dataDir);
});

describe('sign-in against a server process', () => {
  it('should sign the seeded admin in with the mailed code and accept the token', async () => {
    const session = await signInOverHttp(server.url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
    const permissions = await fetch(`${server.url}/api/personal/permissions`, { headers: { authorization: `Bearer ${session.token}` } });
    expect(permissions.status).toBe(200);
    expect(await permissions.json()).toContain('Permissions.Users.Search');
  });

  it('should finish an in-flight request when the server gets SIGTERM, then exit cleanly', async () => {
    const { request } = await import('node:http');
    const body = JSON.stringify({ email: 'nobody@example.test', password: 'wrong password but long' });
    const normal = await fetch(`${server.url}/api/tokens`, { method: 'POST', headers: { 'content-type': 'application/json', tenant: 'root' }, body });
    expect(normal.status).toBeGreaterThanOrEqual(400);
    const exited = new Promise<number | null>((resolve) => server.process.once('exit', (code) => resolve(code)));
    const answered = new Promise<number>((resolve, reject) => {
      const req = request(
        `${server.url}/api/tokens`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), tenant: 'root' } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      // Half the body now, SIGTERM, the rest later: the request is in flight during shutdown.
      req.write(body.slice(0, 10));
      setTimeout(() => {
        server.process.kill('SIGTERM');
        setTimeout(() => req.end(body.slice(10)), 300);
      }, 200);
    });
    // The in-flight request got the answer it gets any other time, then the process ended cleanly.
    expect(await answered).toBe(normal.status);
    expect(await exited).toBe(0);
  });
});
