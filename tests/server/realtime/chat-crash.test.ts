import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { removeDataDir, startServer, type RunningServer } from '#tests/e2e/support/server.ts';
import { signInOverHttp } from '#tests/e2e/support/sign-in.ts';
import { createTestDatabase, testDatabaseKinds, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD, type TestDatabase } from '#tests/setup/test-database.ts';

const MESSAGES = 200;
const KILL_AT = 70;

/**
 * SECURITY.md "Data safety": the server process is SIGKILLed while a client sends 200 chat
 * messages, retrying each (same messageId) until it is acknowledged. After the restart every
 * acknowledged message is stored exactly once, in the order sent.
 */
for (const kind of testDatabaseKinds) {
  describe(`chat across a server crash [${kind}]`, () => {
    let database: TestDatabase | undefined;
    let server: RunningServer | undefined;
    let dataDir: string | undefined;

    afterAll(async () => {
      await server?.kill();
      await database?.drop();
      if (dataDir) await removeDataDir(dataDir);
    });

    it('should keep every acknowledged message exactly once, in order, when the server is killed mid-stream', async () => {
      let env: Record<string, string> = {};
      if (kind === 'postgres') {
        database = await createTestDatabase('postgres');
        env = { DATABASE_URL: database.url! };
      }
      server = await startServer({ env });
      dataDir = server.dataDir;
      const { url, port } = server;
      const session = await signInOverHttp(url, TEST_ADMIN_EMAIL, TEST_ADMIN_PASSWORD);
      const headers = { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
      const groups = (await (await fetch(`${url}/api/v1/supportgroup`, { headers: { authorization: headers.authorization } })).json()) as Array<{
        supportGroupId: number;
        name: string;
      }>;
      const supportGroupId = groups.find((g) => g.name === 'General Support')!.supportGroupId;
      const raised = await fetch(`${url}/api/v1/supportticket`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Crash test', description: 'Chat while the server dies', supportTicketPriorityId: 2, supportGroupId }),
      });
      expect(raised.status).toBe(201);
      const { ticketId } = (await raised.json()) as { ticketId: number };

      let restarted: Promise<void> | undefined;
      const acked: Array<{ messageId: string; seq: number; text: string }> = [];
      let retries = 0;
      for (let i = 0; i < MESSAGES; i += 1) {
        const messageId = randomUUID();
        const text = `message ${i}`;
        for (;;) {
          const request = fetch(`${url}/api/supportchat`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ ticketId, message: text, messageId }),
            signal: AbortSignal.timeout(5000),
          });
          if (i === KILL_AT && !restarted) {
            // Kill while this send is in flight, then bring the server back on the same port and data.
            restarted = (async () => {
              await server!.kill();
              server = await startServer({ env, dataDir, port });
            })();
          }
          try {
            const res = await request;
            if (res.status === 201) {
              const body = (await res.json()) as { messageId: string; seq: number; message: string };
              expect(body.messageId).toBe(messageId);
              acked.push({ messageId, seq: body.seq, text: body.message });
              break;
            }
            if (res.status < 500) throw new Error(`send ${i} refused: ${res.status} ${await res.text()}`);
          } catch (error) {
            if (error instanceof Error && error.message.startsWith('send ')) throw error;
          }
          retries += 1;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      await restarted;
      expect(retries).toBeGreaterThan(0);
      expect(server.output()).not.toContain('First start');

      const stored: Array<{ messageId: string; seq: number; message: string }> = [];
      for (let page = 1; page <= 3; page += 1) {
        const res = await fetch(`${server.url}/api/supportchat/chatdetails`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ supportTicketId: ticketId, pageNumber: page, pageSize: 100 }),
        });
        expect(res.status).toBe(200);
        stored.push(...((await res.json()) as { data: typeof stored }).data);
      }
      stored.reverse();
      expect(acked).toHaveLength(MESSAGES);
      expect(stored).toHaveLength(MESSAGES);
      expect(stored.map((m) => m.messageId)).toEqual(acked.map((m) => m.messageId));
      expect(stored.map((m) => m.message)).toEqual(Array.from({ length: MESSAGES }, (_, i) => `message ${i}`));
      expect(stored.map((m) => m.seq)).toEqual(Array.from({ length: MESSAGES }, (_, i) => i + 1));
      expect(acked.map((m) => m.seq)).toEqual(stored.map((m) => m.seq));
    }, 180_000);
  });
}
