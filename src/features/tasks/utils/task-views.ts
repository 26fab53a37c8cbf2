/**
 * The task list's views as list_tasks filters, the same as the database's get_task_views:
 * days and weeks in the organization's time zone, ranges from inclusive to exclusive.
 * mine: my open tasks; overdue: open ones due before now; today: open ones due today;
 * this_week: open ones due from today to the end of the week (Monday starts a week);
 * all: every task the role may see, whatever its state.
 */
import { openTaskStatuses, type TaskPriority, type TaskStatus } from "@/components/tasks/task-fields.ts";
import { startOfNextZonedWeek, startOfZonedDay } from "@/lib/zoned-time.ts";

export const taskViews = ["mine", "overdue", "today", "this_week", "all"] as const;
export type TaskView = (typeof taskViews)[number];

export function isTaskView(value: string | null): value is TaskView {
  return (taskViews as readonly (string | null)[]).includes(value);
}

export type TaskFilterValue = string | string[] | { from?: string; to?: string };
export type TaskFilters = Record<string, TaskFilterValue>;

/** The filters a chosen view stands for at `now`. */
export function taskViewFilters(view: TaskView, now: Date, timeZone: string): TaskFilters {
  const open = [...openTaskStatuses];
  switch (view) {
    case "mine":
      return { owner_id: "me", status: open };
    case "overdue":
      return { status: open, due_at: { to: now.toISOString() } };
    case "today":
      return {
        status: open,
        due_at: { from: startOfZonedDay(now, timeZone).toISOString(), to: startOfZonedDay(now, timeZone, 1).toISOString() },
      };
    case "this_week":
      return {
        status: open,
        due_at: { from: startOfZonedDay(now, timeZone).toISOString(), to: startOfNextZonedWeek(now, timeZone).toISOString() },
      };
    case "all":
      return {};
  }
}

/** What the user chose in the list's own filters ("" for any). */
export interface ChosenTaskFilters {
  status: TaskStatus | "";
  priority: TaskPriority | "";
  type: string;
  /** The customer the tasks are about (its id, picked by name). */
  customer_id?: string;
}

export const noChosenFilters: ChosenTaskFilters = { status: "", priority: "", type: "", customer_id: "" };

/** The view's filters with the user's own on top (a chosen status replaces the view's). */
export function taskListFilters(view: TaskView, chosen: ChosenTaskFilters, now: Date, timeZone: string): TaskFilters {
  const filters = taskViewFilters(view, now, timeZone);
  for (const key of ["status", "priority", "type"] as const) {
    if (chosen[key] !== "") filters[key] = chosen[key];
  }
  if (chosen.customer_id) filters.customer_id = chosen.customer_id;
  return filters;
}
