import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '#server/db/client.ts';

export interface Job<P = Record<string, unknown>> {
  id: string;
  tenant_id: string | null;
  kind: string;
  payload: P;
  attempts: number;
  created_by: string | null;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- handlers of every payload type share one registry
export type JobHandler = (job: Job<any>, db: Db) => Promise<void>;

export interface EnqueueOptions {
  tenantId?: string | null;
  createdBy?: string | null;
  runAfterSeconds?: number;
}

export async function enqueueJob(db: Queryable, kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `insert into jobs (kind, payload, tenant_id, created_by, run_after)
     values ($1, $2::jsonb, $3, $4, now() + make_interval(secs => $5)) returning id`,
    [kind, JSON.stringify(payload), options.tenantId ?? null, options.createdBy ?? null, options.runAfterSeconds ?? 0],
  );
  return rows[0].id;
}

/**
 * Leases are short and renewed by a heartbeat while the handler runs (issue 23): a job whose
 * process was killed becomes claimable JOB_LEASE_SECONDS after its last heartbeat, instead of
 * minutes later, and a live job never loses its lease however long it takes.
 */
export const JOB_LEASE_SECONDS = 30;
export const JOB_HEARTBEAT_MS = 10_000;

export interface WorkerOptions {
  pollMs?: number;
  /** A claimed job whose worker died becomes claimable again after this long (renewed by the heartbeat). */
  leaseSeconds?: number;
  heartbeatMs?: number;
  maxAttempts?: number;
  log: FastifyBaseLogger;
}

/**
 * Polls the jobs table. A job is claimed with FOR UPDATE SKIP LOCKED and a lease, so two
 * instances never run one job at the same time, and a job whose process died is picked up
 * again when its lease runs out (it survives restarts). Handlers must be idempotent per job.
 */
export function startJobWorker(db: Db, handlers: Record<string, JobHandler>, options: WorkerOptions) {
  const pollMs = options.pollMs ?? 500;
  const leaseSeconds = options.leaseSeconds ?? JOB_LEASE_SECONDS;
  const heartbeatMs = options.heartbeatMs ?? Math.min(JOB_HEARTBEAT_MS, (leaseSeconds * 1000) / 3);
  const maxAttempts = options.maxAttempts ?? 5;
  const kinds = Object.keys(handlers);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  async function claim(): Promise<Job | undefined> {
    const { rows } = await db.query<Job>(
      `update jobs set state = 'running', attempts = attempts + 1, updated_at = now(),
              locked_until = now() + make_interval(secs => $2)
       where id = (
         select id from jobs
         where kind = any($1::text[]) and run_after <= now()
           and (state = 'queued' or (state = 'running' and locked_until < now()))
         order by run_after, created_at
         for update skip locked
         limit 1)
       returning id, tenant_id, kind, payload, attempts, created_by`,
      [kinds, leaseSeconds],
    );
    return rows[0];
  }

  async function runOne(job: Job): Promise<void> {
    // The heartbeat: only this claim's lease (still running, not taken over) is renewed.
    const heartbeat = setInterval(() => {
      db.query(`update jobs set locked_until = now() + make_interval(secs => $2) where id = $1 and state = 'running' and attempts = $3`, [
        job.id,
        leaseSeconds,
        job.attempts,
      ]).catch((error) => options.log.warn({ err: error, jobId: job.id }, 'job heartbeat failed'));
    }, heartbeatMs);
    heartbeat.unref();
    try {
      await handlers[job.kind](job, db);
      await db.query(`update jobs set state = 'done', locked_until = null, updated_at = now() where id = $1`, [job.id]);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= maxAttempts;
      options.log.warn({ jobId: job.id, kind: job.kind, attempts: job.attempts, err: error }, 'job failed');
      await db.query(
        `update jobs set state = $2, last_error = $3, locked_until = null, updated_at = now(),
                run_after = now() + make_interval(secs => $4)
         where id = $1`,
        [job.id, final ? 'failed' : 'queued', message, 2 ** job.attempts * 5],
      );
    } finally {
      clearInterval(heartbeat);
    }
  }

  async function drain(): Promise<void> {
    while (!stopped) {
      const job = await claim().catch((error) => {
        options.log.warn({ err: error }, 'job claim failed');
        return undefined;
      });
      if (!job) return;
      await runOne(job);
    }
  }

  function schedule(delay: number) {
    if (stopped) return;
    timer = setTimeout(() => {
      running = drain().finally(() => schedule(pollMs));
    }, delay);
  }
  schedule(0);

  return {
    /** Look for work now instead of at the next poll (after enqueueing). */
    poke() {
      if (stopped) return;
      clearTimeout(timer);
      schedule(0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
