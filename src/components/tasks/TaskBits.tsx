import { Badge, Checkbox, Group, Text } from "@mantine/core";
import { IconAlertTriangle } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { isStaleRecord, recordFailureKey } from "@/components/records/record-form.ts";
import { formatZonedDateTime } from "@/lib/zoned-time.ts";
import { useSetTaskDone } from "./task-api.ts";
import {
  isKnownTaskType,
  isOverdue,
  priorityColors,
  statusColors,
  type TaskPriority,
  type TaskStatus,
} from "./task-fields.ts";
import type { TaskRow } from "./task-row.ts";
import classes from "./tasks.module.css";

export { classes as taskClasses };

/** The time now, moving on every minute (what "overdue" is measured against). */
export function useNow(intervalMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function TaskStatusBadge({ status }: { status: TaskStatus }) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={statusColors[status]}>
      {t(`taskKit.statuses.${status}`)}
    </Badge>
  );
}

export function TaskPriorityBadge({ priority }: { priority: TaskPriority }) {
  const { t } = useTranslation();
  return (
    <Badge variant="dot" color={priorityColors[priority]}>
      {t(`taskKit.priorities.${priority}`)}
    </Badge>
  );
}

/** A task type in the interface's language (a type the organization added is shown as written). */
export function useTaskTypeLabel(): (type: string | null) => string {
  const { t } = useTranslation();
  return (type) => (type === null ? "—" : isKnownTaskType(type) ? t(`taskKit.types.${type}`) : type);
}

/** When a task is due, in the organization's time zone; an overdue one in red and saying so. */
export function TaskDue({ task, now, timeZone, size = "sm" }: {
  task: Pick<TaskRow, "status" | "due_at">;
  now: number;
  timeZone: string;
  size?: "xs" | "sm" | "md";
}) {
  const { t, i18n } = useTranslation();
  if (!task.due_at) {
    return (
      <Text span size={size} c="dimmed">
        {t("taskKit.noDueDate")}
      </Text>
    );
  }
  const when = formatZonedDateTime(task.due_at, i18n.resolvedLanguage, timeZone);
  if (!isOverdue(task, now)) return <Text span size={size}>{when}</Text>;
  return (
    <Group gap={6} wrap="wrap" component="span">
      <Text span size={size} className={classes.overdue}>
        {when}
      </Text>
      <Badge color="red.9" variant="filled" size="sm" leftSection={<IconAlertTriangle size={12} aria-hidden />}>
        {t("taskKit.overdue")}
      </Badge>
    </Group>
  );
}

/**
 * A task's "done" tick: ticking marks it done (complete_task with the updated_at the list
 * read), unticking opens it again. Disabled for whoever may not change the task, and for
 * a cancelled one.
 */
export function TaskDoneCheckbox({ task, canEdit }: { task: Pick<TaskRow, "id" | "title" | "status" | "updated_at">; canEdit: boolean }) {
  const { t } = useTranslation();
  const setDone = useSetTaskDone();
  const done = task.status === "done";
  // Ticked at once; the server then decides (a refusal unticks it again).
  const shown = setDone.isPending ? !done : done;
  return (
    <Checkbox
      aria-label={t(done ? "taskKit.reopenTask" : "taskKit.completeTask", { title: task.title })}
      checked={shown}
      disabled={!canEdit || task.status === "cancelled" || setDone.isPending}
      onChange={() =>
        setDone.mutate(
          { task, done: !done },
          {
            onSuccess: () => notifySuccess(t(done ? "taskKit.reopened" : "taskKit.completed", { title: task.title })),
            onError: (error) =>
              notifyFailure(
                t(done ? "taskKit.reopenFailed" : "taskKit.completeFailed"),
                isStaleRecord(error) ? t("taskKit.stale") : t(recordFailureKey(error)),
              ),
          },
        )
      }
    />
  );
}
