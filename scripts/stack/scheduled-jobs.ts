/**
 * The local stack's scheduled database work: the jobs of private.scheduled_jobs, which
 * pg_cron runs on hosted Supabase. Every job once at start, then each on a timer of its
 * schedule's period (every minute, or hourly). A failing job is logged and the others
 * still run; jobs never overlap (one queue).
 */
import type { SqlRunner } from "./database.ts";

interface Job {
  name: string;
  command: string;
  intervalMs: number;
}

/**
 * What the local stack runs differently, and why. The spare pool is refilled one spare a
 * run, every 20 s: the embedded database answers one statement at a time, and a whole
 * pool at once would hold every request up for seconds.
 */
const localOverrides: Record<string, Pick<Job, "command" | "intervalMs">> = {
  "crm-refill-tenant-spares": { command: "select private.refill_tenant_spares(1)", intervalMs: 20_000 },
};

/** The period of a schedule private.scheduled_jobs allows: every minute, or hourly at a minute. */
export function scheduleIntervalMs(schedule: string): number {
  if (schedule === "* * * * *") return 60_000;
  if (/^[1-5]?[0-9] \* \* \* \*$/.test(schedule)) return 60 * 60_000;
  throw new Error(`The schedule "${schedule}" is neither every minute nor hourly.`);
}

export interface ScheduledJobs {
  /** Stops the timers and waits for a job in progress. */
  stop(): Promise<void>;
}

export async function startScheduledJobs(sql: SqlRunner): Promise<ScheduledJobs> {
  const rows = await sql.query<{ name: string; schedule: string; command: string }>(
    "select name, schedule, command from private.scheduled_jobs order by name",
  );
  const jobs: Job[] = rows.map((row) => ({
    name: row.name,
    ...(localOverrides[row.name] ?? { command: row.command, intervalMs: scheduleIntervalMs(row.schedule) }),
  }));
  let running: Promise<void> = Promise.resolve();
  const run = (job: Job) => {
    running = running.then(async () => {
      try {
        await sql.query(job.command);
      } catch (error) {
        console.error(`scheduled job ${job.name} failed: ${(error as Error).message}`);
      }
    });
  };
  for (const job of jobs) run(job);
  const timers = jobs.map((job) => {
    const timer = setInterval(() => run(job), job.intervalMs);
    timer.unref();
    return timer;
  });
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await running;
    },
  };
}

/**
 * The notification digests (22_notification_digests.sql): the notification-digests function
 * called with the secret key every `intervalMs` (NOTIFICATION_DIGEST_INTERVAL_MS, default a
 * minute; the database sends a member at most one an hour), as pg_cron and pg_net call it on
 * hosted Supabase (README). Calls never overlap; a failed call is logged and the next one
 * tries again.
 */
export function startDigestCalls(functionsOrigin: string, secretKey: string, intervalMs: number): ScheduledJobs {
  let running: Promise<void> | null = null;
  const call = () => {
    if (running) return;
    running = (async () => {
      try {
        const answer = await fetch(`${functionsOrigin}/functions/v1/notification-digests`, {
          method: "POST",
          headers: { authorization: `Bearer ${secretKey}` },
          signal: AbortSignal.timeout(Math.max(intervalMs, 30_000)),
        });
        if (!answer.ok) console.error(`notification digests: the function answered ${answer.status}`);
        await answer.body?.cancel();
      } catch (error) {
        console.error(`notification digests failed: ${(error as Error).message}`);
      } finally {
        running = null;
      }
    })();
  };
  const timer = setInterval(call, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
