import { describe, expect, it } from "vitest";
import { isTaskView, taskListFilters, taskViewFilters, noChosenFilters } from "./task-views.ts";

const istanbul = "Europe/Istanbul";

describe("task views", () => {
  it("mine: my open tasks", () => {
    expect(taskViewFilters("mine", new Date("2026-11-23T10:00:00Z"), istanbul)).toEqual({
      owner_id: "me",
      status: ["open", "in_progress"],
    });
  });

  it("overdue: open tasks due before now", () => {
    expect(taskViewFilters("overdue", new Date("2026-11-23T10:00:00Z"), istanbul)).toEqual({
      status: ["open", "in_progress"],
      due_at: { to: "2026-11-23T10:00:00.000Z" },
    });
  });

  it("today: from the organization's midnight to the next, not the browser's", () => {
    expect(taskViewFilters("today", new Date("2026-11-23T10:00:00Z"), istanbul).due_at).toEqual({
      from: "2026-11-22T21:00:00.000Z",
      to: "2026-11-23T21:00:00.000Z",
    });
    // 22:30 UTC is half past one in the morning of the next day in Istanbul.
    expect(taskViewFilters("today", new Date("2026-11-23T22:30:00Z"), istanbul).due_at).toEqual({
      from: "2026-11-23T21:00:00.000Z",
      to: "2026-11-24T21:00:00.000Z",
    });
    // The same moment in New York is still the 23rd (UTC-5 in November).
    expect(taskViewFilters("today", new Date("2026-11-23T22:30:00Z"), "America/New_York").due_at).toEqual({
      from: "2026-11-23T05:00:00.000Z",
      to: "2026-11-24T05:00:00.000Z",
    });
  });

  it("today is 23 hours long on the day summer time starts", () => {
    expect(taskViewFilters("today", new Date("2026-03-08T15:00:00Z"), "America/New_York").due_at).toEqual({
      from: "2026-03-08T05:00:00.000Z",
      to: "2026-03-09T04:00:00.000Z",
    });
  });

  it("this week: from today's start to Monday's midnight in the organization's zone", () => {
    // Wednesday 25 November 2026 in Istanbul.
    expect(taskViewFilters("this_week", new Date("2026-11-25T12:00:00Z"), istanbul)).toEqual({
      status: ["open", "in_progress"],
      due_at: { from: "2026-11-24T21:00:00.000Z", to: "2026-11-29T21:00:00.000Z" },
    });
    // Sunday 23:30 in Istanbul (20:30 UTC): the week ends within the half hour.
    expect(taskViewFilters("this_week", new Date("2026-11-29T20:30:00Z"), istanbul).due_at).toEqual({
      from: "2026-11-28T21:00:00.000Z",
      to: "2026-11-29T21:00:00.000Z",
    });
    // Monday 00:30 in Istanbul, still Sunday in UTC: a new week has begun.
    expect(taskViewFilters("this_week", new Date("2026-11-29T21:30:00Z"), istanbul).due_at).toEqual({
      from: "2026-11-29T21:00:00.000Z",
      to: "2026-12-06T21:00:00.000Z",
    });
  });

  it("all: no filter (the role's scope decides)", () => {
    expect(taskViewFilters("all", new Date(), istanbul)).toEqual({});
  });

  it("puts the chosen filters on top of the view's; a chosen status replaces the view's", () => {
    const now = new Date("2026-11-23T10:00:00Z");
    expect(taskListFilters("mine", { status: "done", priority: "urgent", type: "" }, now, istanbul)).toEqual({
      owner_id: "me",
      status: "done",
      priority: "urgent",
    });
    expect(taskListFilters("all", { ...noChosenFilters, type: "call" }, now, istanbul)).toEqual({ type: "call" });
    expect(taskListFilters("all", { ...noChosenFilters, customer_id: "c1" }, now, istanbul)).toEqual({ customer_id: "c1" });
    expect(taskListFilters("all", { ...noChosenFilters, customer_id: "" }, now, istanbul)).toEqual({});
  });

  it("knows its views by name", () => {
    expect(isTaskView("overdue")).toBe(true);
    expect(isTaskView("upcoming")).toBe(false);
    expect(isTaskView(null)).toBe(false);
  });
});
