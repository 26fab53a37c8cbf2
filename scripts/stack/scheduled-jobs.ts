/**
 * The local stack's scheduled database work, what pg_cron runs on hosted Supabase: every
 * step once at start, then on a timer. A failing step is logged and the others still run.
 */
import type { SqlRunner } from "./database.ts";

/** Steps run in this order on each tick. */
const steps = [{ name: "maintenance (retention)", sql: "select private.run_maintenance()" }];

const intervalMs = 10 * 60_000;

export interface ScheduledJobs {
  /** Stops the timer and waits for a tick in progress. */
  stop(): Promise<void>;
}

export function startScheduledJobs(sql: SqlRunner): ScheduledJobs {
  let running: Promise<void> = Promise.resolve();
  const tick = () => {
    running = running.then(async () => {
      for (const step of steps) {
        try {
          await sql.query(step.sql);
        } catch (error) {
          console.error(`scheduled step ${step.name} failed: ${(error as Error).message}`);
        }
      }
    });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
