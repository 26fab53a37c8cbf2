/**
 * The local stack's scheduled database work, what pg_cron runs on hosted Supabase: every
 * step once at start, then each on its own timer. A failing step is logged and the
 * others still run; steps never overlap (one queue).
 */
import type { SqlRunner } from "./database.ts";

interface Step {
  name: string;
  sql: string;
  intervalMs: number;
}

/** Run in this order at start; then each on its interval (the same as its pg_cron schedule). */
const steps: Step[] = [
  { name: "maintenance (retention)", sql: "select private.run_maintenance()", intervalMs: 10 * 60_000 },
  // Reminders, tasks due within the hour and overdue tasks (pg_cron: every minute).
  { name: "due items (task notifications)", sql: "select private.notify_due_items()", intervalMs: 60_000 },
  // Sent quotes past valid_until become expired (pg_cron: hourly).
  { name: "quote expiry", sql: "select private.expire_quotes()", intervalMs: 60 * 60_000 },
  // Contract renewal notices, expiry and auto-renewal (pg_cron: hourly).
  { name: "contracts (renewal notices, expiry)", sql: "select private.contract_due_steps()", intervalMs: 60 * 60_000 },
  // Spare organization schemas, claimed by create_organization (pg_cron: every minute, the
  // whole pool). One spare a run here: the embedded database answers one statement at a time.
  { name: "spare organization schemas", sql: "select private.refill_tenant_spares(1)", intervalMs: 20_000 },
];

export interface ScheduledJobs {
  /** Stops the timers and waits for a step in progress. */
  stop(): Promise<void>;
}

export function startScheduledJobs(sql: SqlRunner): ScheduledJobs {
  let running: Promise<void> = Promise.resolve();
  const run = (step: Step) => {
    running = running.then(async () => {
      try {
        await sql.query(step.sql);
      } catch (error) {
        console.error(`scheduled step ${step.name} failed: ${(error as Error).message}`);
      }
    });
  };
  for (const step of steps) run(step);
  const timers = steps.map((step) => {
    const timer = setInterval(() => run(step), step.intervalMs);
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
