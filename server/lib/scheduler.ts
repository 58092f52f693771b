import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '#server/db/client.ts';
import type { Clock } from './clock.ts';

/**
 * Claims the run of a named periodic task for this interval. Of several instances polling at
 * once, exactly one gets `true`: the row update is conditional on the last run being at least
 * one interval old.
 */
export async function claimScheduledRun(db: Db, name: string, now: Date, intervalMs: number): Promise<boolean> {
  const { rows } = await db.query(
    `insert into scheduled_runs (name, last_run_at) values ($1, $2)
     on conflict (name) do update set last_run_at = excluded.last_run_at
       where scheduled_runs.last_run_at <= $3
     returning name`,
    [name, now, new Date(now.getTime() - intervalMs)],
  );
  return rows.length === 1;
}

export interface PeriodicTask {
  name: string;
  intervalMs: number;
  run(): Promise<unknown>;
}

/** Polls every task at its interval; each run is claimed so it happens once across instances. */
export function startScheduler(db: Db, clock: Clock, tasks: PeriodicTask[], log: FastifyBaseLogger, pollMs = 30_000) {
  let stopped = false;
  let running: Promise<void> = Promise.resolve();
  const tick = async () => {
    for (const task of tasks) {
      if (stopped) return;
      try {
        if (await claimScheduledRun(db, task.name, clock.now(), task.intervalMs)) {
          const result = await task.run();
          log.info({ task: task.name, result }, 'scheduled task ran');
        }
      } catch (error) {
        log.warn({ err: error, task: task.name }, 'scheduled task failed');
      }
    }
  };
  const timer = setInterval(() => {
    running = running.then(tick);
  }, pollMs);
  timer.unref();
  running = running.then(tick);
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
