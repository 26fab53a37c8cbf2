import { afterEach, describe, expect, it, vi } from "vitest";
import type { SqlRunner } from "../../scripts/stack/database.ts";
import { scheduleIntervalMs, startScheduledJobs } from "../../scripts/stack/scheduled-jobs.ts";

/** A runner answering the jobs query with `rows` and recording every other statement. */
function fakeRunner(rows: { name: string; schedule: string; command: string }[]) {
  const ran: string[] = [];
  const runner = {
    query: async (text: string) => {
      if (text.includes("from private.scheduled_jobs")) return rows;
      ran.push(text);
      return [];
    },
  } as unknown as SqlRunner;
  return { runner, ran };
}

describe("the local stack's scheduled jobs (private.scheduled_jobs)", () => {
  afterEach(() => vi.useRealTimers());

  it("reads the two schedules the table allows and refuses any other", () => {
    expect(scheduleIntervalMs("* * * * *")).toBe(60_000);
    expect(scheduleIntervalMs("17 * * * *")).toBe(3_600_000);
    expect(() => scheduleIntervalMs("*/5 * * * *")).toThrow(/neither every minute nor hourly/);
  });

  it("runs every job at start, then each on its schedule's period, the spare pool one spare every 20 s", async () => {
    vi.useFakeTimers();
    const { runner, ran } = fakeRunner([
      { name: "crm-maintenance", schedule: "17 * * * *", command: "select private.run_maintenance()" },
      { name: "crm-notify-due-items", schedule: "* * * * *", command: "select private.notify_due_items()" },
      { name: "crm-refill-tenant-spares", schedule: "* * * * *", command: "select private.refill_tenant_spares()" },
    ]);
    const jobs = await startScheduledJobs(runner);
    await vi.advanceTimersByTimeAsync(0);
    expect(ran).toEqual([
      "select private.run_maintenance()",
      "select private.notify_due_items()",
      "select private.refill_tenant_spares(1)",
    ]);
    ran.length = 0;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ran.filter((text) => text.includes("notify_due_items"))).toHaveLength(1);
    expect(ran.filter((text) => text.includes("refill_tenant_spares(1)"))).toHaveLength(3);
    expect(ran.filter((text) => text.includes("run_maintenance"))).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(3_600_000 - 60_000);
    expect(ran.filter((text) => text.includes("run_maintenance"))).toHaveLength(1);
    await jobs.stop();
  });

  it("logs a failing job and still runs the others", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const ran: string[] = [];
    const runner = {
      query: async (text: string) => {
        if (text.includes("from private.scheduled_jobs")) {
          return [
            { name: "crm-expire-quotes", schedule: "7 * * * *", command: "select private.expire_quotes()" },
            { name: "crm-maintenance", schedule: "17 * * * *", command: "select private.run_maintenance()" },
          ];
        }
        if (text.includes("expire_quotes")) throw new Error("out of shared memory");
        ran.push(text);
        return [];
      },
    } as unknown as SqlRunner;
    const jobs = await startScheduledJobs(runner);
    await jobs.stop();
    expect(ran).toEqual(["select private.run_maintenance()"]);
    expect(errors).toHaveBeenCalledWith("scheduled job crm-expire-quotes failed: out of shared memory");
    errors.mockRestore();
  });
});
