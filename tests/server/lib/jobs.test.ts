import pino from 'pino';
import { expect, it, vi } from 'vitest';
import { enqueueJob, startJobWorker, type Job } from '#server/lib/jobs.ts';
import { describeEachDatabase } from '#tests/setup/test-app.ts';

const log = pino({ level: 'silent' });

describeEachDatabase('job worker', (get) => {
  it('should run each job exactly once when two workers poll the same table', async () => {
    const { db } = get();
    const seen: string[] = [];
    const handler = async (job: Job) => {
      seen.push(job.payload.n as string);
      await new Promise((r) => setTimeout(r, 5));
    };
    for (let n = 0; n < 30; n += 1) await enqueueJob(db, 'test.once', { n: String(n) });
    const a = startJobWorker(db, { 'test.once': handler }, { log, pollMs: 20 });
    const b = startJobWorker(db, { 'test.once': handler }, { log, pollMs: 20 });
    await vi.waitFor(
      async () => {
        const { rows } = await db.query<{ n: number }>(`select count(*)::int as n from jobs where kind = 'test.once' and state = 'done'`);
        expect(rows[0].n).toBe(30);
      },
      { timeout: 15_000, interval: 50 },
    );
    await Promise.all([a.stop(), b.stop()]);
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
  });

  it('should retry a failing job later and record the error', async () => {
    const { db } = get();
    const id = await enqueueJob(db, 'test.fails', {});
    const worker = startJobWorker(
      db,
      {
        'test.fails': async () => {
          throw new Error('SMTP is down');
        },
      },
      { log, pollMs: 20, maxAttempts: 3 },
    );
    await vi.waitFor(
      async () => {
        const { rows } = await db.query<{ attempts: number; state: string; last_error: string }>(`select attempts, state, last_error from jobs where id = $1`, [
          id,
        ]);
        expect(rows[0]).toMatchObject({ attempts: 1, state: 'queued', last_error: 'SMTP is down' });
      },
      { timeout: 10_000, interval: 50 },
    );
    await worker.stop();
    const { rows } = await db.query<{ later: boolean }>(`select run_after > now() as later from jobs where id = $1`, [id]);
    expect(rows[0].later).toBe(true);
  });

  it('should pick up a job whose lease ran out (its worker died)', async () => {
    const { db } = get();
    const id = await enqueueJob(db, 'test.orphan', {});
    await db.query(`update jobs set state = 'running', attempts = 1, locked_until = now() - interval '1 second' where id = $1`, [id]);
    const ran: string[] = [];
    const worker = startJobWorker(
      db,
      {
        'test.orphan': async (job) => {
          ran.push(job.id);
        },
      },
      { log, pollMs: 20 },
    );
    await vi.waitFor(() => expect(ran).toEqual([id]), { timeout: 10_000, interval: 50 });
    await worker.stop();
  });
});
