/**
 * The task form: its values on screen, the browser's checks (the rules of
 * private.prepare_task: a title of at most 200 characters, a description of at most
 * 10,000, a reminder not after the due time) and the values sent to the database. Dates are
 * typed and shown on the organization's clock.
 */
import { z } from "zod";
import { fieldErrorKey } from "@/components/records/record-form.ts";
import { taskPriorities, taskStatuses, type TaskRelation } from "@/components/tasks/task-fields.ts";
import { fromZonedInputValue, toZonedInputValue } from "@/lib/zoned-time.ts";
import type { Task, TaskValues } from "../api/tasks.ts";

const msg = (key: string) => `modules.tasks.form.errors.${key}`;

export const taskFormSchema = z
  .object({
    title: z
      .string()
      .refine((value) => value.trim() !== "", fieldErrorKey("required"))
      .refine((value) => value.trim().length <= 200, fieldErrorKey("too_long")),
    description: z.string().max(10000, fieldErrorKey("too_long")),
    type: z.string(),
    priority: z.enum(taskPriorities),
    status: z.enum(taskStatuses),
    /** datetime-local values ("2026-11-23T14:30"), "" for none. */
    due_at: z.string(),
    remind_at: z.string(),
    owner_id: z.string(),
    customer_id: z.string().nullable(),
    contact_id: z.string().nullable(),
    deal_id: z.string().nullable(),
  })
  .superRefine((values, context) => {
    for (const field of ["due_at", "remind_at"] as const) {
      if (values[field] !== "" && fromZonedInputValue(values[field], "UTC") === null) {
        context.addIssue({ code: "custom", path: [field], message: fieldErrorKey("invalid") });
      }
    }
    // The same wall clock for both: comparing the texts compares the times.
    if (values.due_at !== "" && values.remind_at !== "" && values.remind_at > values.due_at) {
      context.addIssue({ code: "custom", path: ["remind_at"], message: msg("after_due") });
    }
  });
export type TaskFormValues = z.infer<typeof taskFormSchema>;

/** A new task's form: mine, normal priority, open; a related record already chosen when given. */
export function emptyTaskForm(ownerId: string, related: Partial<Record<TaskRelation, string>> = {}): TaskFormValues {
  return {
    title: "",
    description: "",
    type: "",
    priority: "normal",
    status: "open",
    due_at: "",
    remind_at: "",
    owner_id: ownerId,
    customer_id: related.customer_id ?? null,
    contact_id: related.contact_id ?? null,
    deal_id: related.deal_id ?? null,
  };
}

export function taskFormOf(task: Task, timeZone: string): TaskFormValues {
  return {
    title: task.title,
    description: task.description ?? "",
    type: task.type ?? "",
    priority: task.priority,
    status: task.status,
    due_at: toZonedInputValue(task.due_at, timeZone),
    remind_at: toZonedInputValue(task.remind_at, timeZone),
    owner_id: task.owner_id,
    customer_id: task.customer_id,
    contact_id: task.contact_id,
    deal_id: task.deal_id,
  };
}

/** What goes to create_task / update_task; the owner only when the member may choose one. */
export function taskValuesOf(form: TaskFormValues, timeZone: string, withOwner: boolean): TaskValues {
  const text = (value: string) => (value.trim() === "" ? null : value.trim());
  return {
    title: form.title.trim(),
    description: text(form.description),
    type: text(form.type),
    priority: form.priority,
    status: form.status,
    due_at: form.due_at === "" ? null : fromZonedInputValue(form.due_at, timeZone),
    remind_at: form.remind_at === "" ? null : fromZonedInputValue(form.remind_at, timeZone),
    customer_id: form.customer_id,
    contact_id: form.contact_id,
    deal_id: form.deal_id,
    ...(withOwner ? { owner_id: form.owner_id } : {}),
  };
}

/**
 * What an edit changes: only the fields whose value on screen differs from the task's. A
 * due time or reminder left as it was keeps its exact instant (the field shows minutes; a
 * time with seconds sent back rounded would count as a new time and announce it again).
 */
export function taskChangesOf(form: TaskFormValues, task: Task, timeZone: string, withOwner: boolean): Partial<TaskValues> {
  const before = taskFormOf(task, timeZone);
  const values = taskValuesOf(form, timeZone, withOwner);
  return Object.fromEntries(
    (Object.keys(values) as (keyof TaskValues)[])
      .filter((field) => (field === "title" ? values.title !== task.title : form[field] !== before[field]))
      .map((field) => [field, values[field]]),
  );
}

/** The field error codes of private.prepare_task that the shared catalogue does not name. */
const taskErrorCodes = ["after_due", "invalid_type"] as const;

/** A field error code of the database as a catalogue key. */
export function taskFieldErrorKey(code: string): string {
  return (taskErrorCodes as readonly string[]).includes(code) ? msg(code) : fieldErrorKey(code);
}
