import { Anchor, Button, Group, Paper, Stack, Text } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useRecordList } from "@/components/records/record-api.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { useCanEditTask, useOrganizationTimeZone } from "./task-api.ts";
import { TaskDoneCheckbox, TaskDue, TaskPriorityBadge, TaskStatusBadge, taskClasses, useNow } from "./TaskBits.tsx";
import { isOpenTask, isOverdue, type TaskRelation } from "./task-fields.ts";
import { taskRowSchema } from "./task-row.ts";

interface Props {
  /** The column of tasks that points at the record: customer_id, contact_id or deal_id. */
  relation: TaskRelation;
  /** The record's id. */
  recordId: string;
  /** The list's accessible name (e.g. "Müşterinin görevleri"); a default is used otherwise. */
  label?: string;
}

const LIMIT = 50;

/**
 * The tasks about one record (a customer, a contact or a deal), for its detail page: the
 * open ones first by due time, then the rest; each links to its page, shows when it is due
 * (overdue ones marked) and can be ticked done. A "new task" link opens the task form with
 * the record already chosen.
 */
export function RelatedTasks({ relation, recordId, label }: Props) {
  const { t } = useTranslation();
  const now = useNow();
  const timeZone = useOrganizationTimeZone();
  const canEdit = useCanEditTask();
  const permissions = useMyPermissions();
  const canCreate = permissions.data?.permissions.tasks?.create !== undefined;
  const canView = permissions.data ? permissions.data.permissions.tasks?.view !== undefined : true;
  const tasks = useRecordList("tasks", taskRowSchema, {
    p_filters: { [relation]: recordId },
    p_sort: "due_at",
    p_descending: false,
    p_limit: LIMIT,
    p_offset: 0,
  });

  if (!canView) return <Text c="dimmed">{t("taskKit.related.denied")}</Text>;
  const newTask = canCreate && (
    <Group>
      <Button component={Link} to={`/tasks?new=1&${relation}=${recordId}`} variant="light" size="xs" leftSection={<IconPlus size={14} aria-hidden />}>
        {t("taskKit.related.newTask")}
      </Button>
    </Group>
  );
  if (tasks.isPending) return <LoadingScreen compact />;
  if (tasks.isError) return <LoadError title={t("taskKit.related.loadError")} onRetry={() => void tasks.refetch()} />;
  // Open ones first (each part stays in due order).
  const rows = [...tasks.data.records].sort((a, b) => Number(isOpenTask(b)) - Number(isOpenTask(a)));

  return (
    <Stack gap="sm">
      {newTask}
      {rows.length === 0 ? (
        <Text c="dimmed">{t("taskKit.related.empty")}</Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: "none" }} aria-label={label ?? t("taskKit.related.label")}>
          {rows.map((task) => (
            <Paper component="li" key={task.id} withBorder p="sm" className={isOverdue(task, now) ? taskClasses.overdueRow : undefined}>
              <Group wrap="nowrap" align="flex-start" gap="sm">
                <TaskDoneCheckbox task={task} canEdit={canEdit(task)} />
                <Stack gap={4} style={{ minWidth: 0, flex: 1 }}>
                  <Anchor component={Link} to={`/tasks/${task.id}`} fw={600} className={task.status === "done" ? taskClasses.done : undefined}
                    style={{ overflowWrap: "anywhere" }}>
                    {task.title}
                  </Anchor>
                  <Group gap="xs" wrap="wrap">
                    <TaskDue task={task} now={now} timeZone={timeZone} size="xs" />
                    <TaskStatusBadge status={task.status} />
                    <TaskPriorityBadge priority={task.priority} />
                    {task.owner_name && (
                      <Text span size="xs" c="dimmed">
                        {task.owner_name}
                      </Text>
                    )}
                  </Group>
                </Stack>
              </Group>
            </Paper>
          ))}
        </Stack>
      )}
      {tasks.data.total > LIMIT && (
        <Text size="sm" c="dimmed">
          {t("taskKit.related.more", { count: tasks.data.total - LIMIT })}
        </Text>
      )}
    </Stack>
  );
}
