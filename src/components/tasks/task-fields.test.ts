import { describe, expect, it } from "vitest";
import { isKnownTaskType, isOpenTask, isOverdue } from "./task-fields.ts";

describe("task fields", () => {
  const now = Date.parse("2026-11-23T10:00:00Z");

  it("counts open and in-progress tasks as still to do", () => {
    expect(isOpenTask({ status: "open" })).toBe(true);
    expect(isOpenTask({ status: "in_progress" })).toBe(true);
    expect(isOpenTask({ status: "done" })).toBe(false);
    expect(isOpenTask({ status: "cancelled" })).toBe(false);
  });

  it("calls a task overdue when it is still to do and its due time has passed", () => {
    expect(isOverdue({ status: "open", due_at: "2026-11-23T09:59:00Z" }, now)).toBe(true);
    expect(isOverdue({ status: "in_progress", due_at: "2026-11-23T09:59:00Z" }, now)).toBe(true);
    expect(isOverdue({ status: "open", due_at: "2026-11-23T10:00:00Z" }, now)).toBe(false);
    expect(isOverdue({ status: "done", due_at: "2026-11-20T10:00:00Z" }, now)).toBe(false);
    expect(isOverdue({ status: "open", due_at: null }, now)).toBe(false);
  });

  it("knows the default task types", () => {
    expect(isKnownTaskType("call")).toBe(true);
    expect(isKnownTaskType("demo")).toBe(false);
  });
});
