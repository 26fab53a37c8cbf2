import { describe, expect, it } from "vitest";
import { emptyTaskForm, taskChangesOf, taskFieldErrorKey, taskFormOf, taskFormSchema, taskValuesOf } from "./task-form.ts";
import type { Task } from "../api/tasks.ts";

const me = "0b000000-0000-4000-8000-000000000003";
const issues = (values: object) => {
  const result = taskFormSchema.safeParse({ ...emptyTaskForm(me), ...values });
  return result.success ? [] : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
};

describe("task form", () => {
  it("needs a title of at most 200 characters", () => {
    expect(issues({ title: "  " })).toEqual([["title", "records.form.fieldErrors.required"]]);
    expect(issues({ title: "x".repeat(201) })).toEqual([["title", "records.form.fieldErrors.too_long"]]);
    expect(issues({ title: "Teklifi ara" })).toEqual([]);
  });

  it("refuses a reminder after the due time", () => {
    expect(issues({ title: "X", due_at: "2026-11-24T10:00", remind_at: "2026-11-24T11:00" })).toEqual([
      ["remind_at", "modules.tasks.form.errors.after_due"],
    ]);
    expect(issues({ title: "X", due_at: "2026-11-24T10:00", remind_at: "2026-11-24T09:00" })).toEqual([]);
  });

  it("sends times read on the organization's clock, empty text as null, the owner only when it may be chosen", () => {
    const form = { ...emptyTaskForm(me, { deal_id: "d1" }), title: " Ara ", description: " ", type: "call", due_at: "2026-11-24T10:00" };
    expect(taskValuesOf(form, "Europe/Istanbul", false)).toEqual({
      title: "Ara",
      description: null,
      type: "call",
      priority: "normal",
      status: "open",
      due_at: "2026-11-24T07:00:00.000Z",
      remind_at: null,
      customer_id: null,
      contact_id: null,
      deal_id: "d1",
    });
    expect(taskValuesOf(form, "Europe/Istanbul", true).owner_id).toBe(me);
  });

  const task = {
    id: "t1",
    owner_id: me,
    owner_name: "Mehmet Demir",
    created_at: "2026-11-20T08:00:00Z",
    updated_at: "2026-11-20T08:00:00Z",
    title: "Ara",
    description: null,
    type: null,
    priority: "high",
    status: "in_progress",
    // Seconds and more: a time made by the database, not typed in a form.
    due_at: "2026-11-24T07:00:42.123Z",
    remind_at: null,
    completed_at: null,
    customer_id: null,
    contact_id: null,
    deal_id: null,
  } satisfies Task;

  it("sends only what an edit changed, keeping an untouched due time exact", () => {
    const form = taskFormOf(task, "Europe/Istanbul");
    expect(taskChangesOf(form, task, "Europe/Istanbul", true)).toEqual({});
    expect(taskChangesOf({ ...form, title: "Ara ve yaz", priority: "urgent" }, task, "Europe/Istanbul", true)).toEqual({
      title: "Ara ve yaz",
      priority: "urgent",
    });
    expect(taskChangesOf({ ...form, due_at: "2026-11-25T10:00" }, task, "Europe/Istanbul", false)).toEqual({
      due_at: "2026-11-25T07:00:00.000Z",
    });
    // The owner only goes when it may be chosen.
    expect(taskChangesOf({ ...form, owner_id: "someone" }, task, "Europe/Istanbul", false)).toEqual({});
    expect(taskChangesOf({ ...form, owner_id: "someone" }, task, "Europe/Istanbul", true)).toEqual({ owner_id: "someone" });
  });

  it("shows a task's times on the organization's clock", () => {
    expect(taskFormOf(task, "Europe/Istanbul")).toMatchObject({ due_at: "2026-11-24T10:00", remind_at: "", type: "", status: "in_progress" });
  });

  it("names the database's task field errors", () => {
    expect(taskFieldErrorKey("after_due")).toBe("modules.tasks.form.errors.after_due");
    expect(taskFieldErrorKey("invalid_type")).toBe("modules.tasks.form.errors.invalid_type");
    expect(taskFieldErrorKey("not_found")).toBe("records.form.fieldErrors.not_found");
    expect(taskFieldErrorKey("weird")).toBe("records.form.fieldErrors.invalid");
  });
});
