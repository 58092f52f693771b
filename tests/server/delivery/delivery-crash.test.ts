import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL_DOMAIN } from '#server/db/demo-data.ts';
import { removeDataDir, startServer, type RunningServer } from '#tests/e2e/support/server.ts';
import { signInOverHttp } from '#tests/e2e/support/sign-in.ts';
import { createTestDatabase, testDatabaseKinds, type TestDatabase } from '#tests/setup/test-database.ts';

const SAVES = 200;
const KILL_AT = 70;
const PASSWORD = 'demo pass phrase 2027 ok';

interface Sitting {
  registrationId: number;
  seasonPaperId: number;
  paperCode: string;
  deliveryId: number | null;
}
interface Answer {
  itemNumber: number;
  sequence: number;
  response: unknown;
  marked: boolean;
}

/**
 * Issue 19 "a save acknowledged by the server survives a SIGKILL of the server": the demo
 * candidate sits the mock test and autosaves 200 times, each save retried with the same save id
 * until the server acknowledges it; the server process is SIGKILLed while save 70 is in flight
 * and started again on the same port and data. After that, every question holds exactly its last
 * acknowledged save (response, sequence and mark), none older and none lost, and each retried
 * save id was stored once (a retry answers as the first time did).
 */
for (const kind of testDatabaseKinds) {
  describe(`autosave across a server crash [${kind}]`, () => {
    let database: TestDatabase | undefined;
    let server: RunningServer | undefined;
    let dataDir: string | undefined;

    afterAll(async () => {
      await server?.kill();
      await database?.drop();
      if (dataDir) await removeDataDir(dataDir);
    });

    it('should keep every acknowledged save, none duplicated or reordered, when the server is killed mid-stream', async () => {
      let env: Record<string, string> = { DEMO_DATA: '1', DEMO_PASSWORD: PASSWORD };
      if (kind === 'postgres') {
        database = await createTestDatabase('postgres');
        env = { ...env, DATABASE_URL: database.url! };
      }
      server = await startServer({ env, startupTimeoutMs: 240_000 });
      dataDir = server.dataDir;
      const { url, port } = server;
      const session = await signInOverHttp(url, `kavya.shah@${DEMO_EMAIL_DOMAIN}`, PASSWORD);
      const headers = { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' };
      const call = (path: string, init: RequestInit = {}) => fetch(`${server!.url}/api${path}`, { ...init, headers, signal: AbortSignal.timeout(5000) });

      const sittings = (await (await call('/v1/delivery/mine')).json()) as Sitting[];
      const mock = sittings.find((s) => s.paperCode === 'MATH-UT-1');
      expect(mock, JSON.stringify(sittings)).toBeDefined();
      const opened = await call('/v1/delivery/mine', {
        method: 'POST',
        body: JSON.stringify({ registrationId: mock!.registrationId, seasonPaperId: mock!.seasonPaperId }),
      });
      expect(opened.status, await opened.clone().text()).toBeLessThan(300);
      const delivery = (await opened.json()) as { deliveryId: number; sections: Array<{ items: unknown[] }> };
      const questions = delivery.sections.reduce((n, s) => n + s.items.length, 0);
      expect(questions).toBeGreaterThan(1);
      const started = await call(`/v1/delivery/mine/${delivery.deliveryId}/start`, { method: 'POST', body: JSON.stringify({ declaration: true }) });
      expect(started.status, await started.clone().text()).toBe(200);

      // Save i answers question (i mod n) + 1 with the text "answer i"; sequences grow per question.
      const sequences = new Map<number, number>();
      const acknowledged = new Map<number, Answer>();
      const saveIds = new Set<string>();
      let restarted: Promise<void> | undefined;
      let retries = 0;
      for (let i = 0; i < SAVES; i += 1) {
        const itemNumber = (i % questions) + 1;
        const sequence = (sequences.get(itemNumber) ?? 0) + 1;
        sequences.set(itemNumber, sequence);
        const save = { saveId: randomUUID(), itemNumber, sequence, response: `answer ${i}`, marked: i % 3 === 0 };
        saveIds.add(save.saveId);
        for (;;) {
          const request = call(`/v1/delivery/mine/${delivery.deliveryId}/answers`, { method: 'PUT', body: JSON.stringify({ saves: [save] }) });
          if (i === KILL_AT && !restarted) {
            restarted = (async () => {
              await server!.kill();
              server = await startServer({ env, dataDir, port, startupTimeoutMs: 240_000 });
            })();
          }
          try {
            const res = await request;
            if (res.status === 200) {
              const body = (await res.json()) as { results: Array<{ saveId: string; applied: boolean; storedSequence: number }> };
              expect(body.results).toEqual([{ saveId: save.saveId, itemNumber, applied: true, storedSequence: sequence }]);
              acknowledged.set(itemNumber, { itemNumber, sequence, response: save.response, marked: save.marked });
              break;
            }
            if (res.status < 500) throw new Error(`save ${i} refused: ${res.status} ${await res.text()}`);
          } catch (error) {
            if (error instanceof Error && error.message.startsWith('save ')) throw error;
          }
          retries += 1;
          await new Promise((r) => setTimeout(r, 50));
        }
      }
      await restarted;
      expect(retries).toBeGreaterThan(0);

      // Read back after the crash: each question holds its last acknowledged save.
      const reread = (await (await call(`/v1/delivery/mine/${delivery.deliveryId}`)).json()) as { answers: Answer[]; timing: { status: string } };
      expect(reread.timing.status).toBe('Active');
      const stored = [...reread.answers].sort((a, b) => a.itemNumber - b.itemNumber);
      expect(stored).toEqual([...acknowledged.values()].sort((a, b) => a.itemNumber - b.itemNumber));
      expect(stored.reduce((n, a) => n + a.sequence, 0)).toBe(SAVES);

      // A retry of any acknowledged save changes nothing and answers as the first time did.
      const again = await call(`/v1/delivery/mine/${delivery.deliveryId}/answers`, {
        method: 'PUT',
        body: JSON.stringify({ saves: [{ saveId: [...saveIds][0], itemNumber: 1, sequence: 1, response: 'answer 0', marked: true }] }),
      });
      expect(again.status).toBe(200);
      expect(((await again.json()) as { results: Array<{ applied: boolean; storedSequence: number }> }).results[0]).toMatchObject({
        applied: true,
        storedSequence: acknowledged.get(1)!.sequence,
      });
      const after = (await (await call(`/v1/delivery/mine/${delivery.deliveryId}`)).json()) as { answers: Answer[] };
      expect([...after.answers].sort((a, b) => a.itemNumber - b.itemNumber)).toEqual(stored);
    }, 600_000);
  });
}
