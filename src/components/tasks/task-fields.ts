/**
 * What every screen that shows tasks shares (the tasks module, a record's related tasks,
 * the home dashboard): the task's states and priorities in their natural order (the
 * database's enums), which ones are still to do, and when one is overdue.
 */

export const taskStatuses = ["open", "in_progress", "done", "cancelled"] as const;
export type TaskStatus = (typeof taskStatuses)[number];

export const taskPriorities = ["low", "normal", "high", "urgent"] as const;
export type TaskPriority = (typeof taskPriorities)[number];

/** The states of a task still to do (the views' "open"). */
export const openTaskStatuses = ["open", "in_progress"] as const satisfies readonly TaskStatus[];

/** The task types an organization starts with (settings.task_types); others it adds are shown as written. */
export const knownTaskTypes = ["call", "meeting", "email", "visit", "other"] as const;
export type KnownTaskType = (typeof knownTaskTypes)[number];

export function isKnownTaskType(type: string): type is KnownTaskType {
  return (knownTaskTypes as readonly string[]).includes(type);
}

export function isOpenTask(task: { status: TaskStatus }): boolean {
  return (openTaskStatuses as readonly string[]).includes(task.status);
}

/** Still to do and past its due time (the overdue view's rule: due_at before now). */
export function isOverdue(task: { status: TaskStatus; due_at: string | null }, now: number): boolean {
  return isOpenTask(task) && task.due_at !== null && new Date(task.due_at).getTime() < now;
}

/** The records a task may be about, by the column that links them. */
export const taskRelations = ["customer_id", "contact_id", "deal_id"] as const;
export type TaskRelation = (typeof taskRelations)[number];

export const priorityColors: Record<TaskPriority, string> = { low: "gray", normal: "blue", high: "orange", urgent: "red" };
export const statusColors: Record<TaskStatus, string> = { open: "blue", in_progress: "yellow", done: "green", cancelled: "gray" };
