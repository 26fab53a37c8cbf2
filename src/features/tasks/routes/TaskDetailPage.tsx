import { Anchor, Button, Group, Stack, Text } from "@mantine/core";
import { IconCheck, IconRotate } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router-dom";
import { z } from "zod";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { memberName, recordBaseSchema, useDeleteRecords, useOrganizationMembers, useRecord } from "@/components/records/record-api.ts";
import { isStaleRecord, recordFailureKey } from "@/components/records/record-form.ts";
import { RecordDetailLayout } from "@/components/records/RecordDetailLayout.tsx";
import { RecordUnavailable } from "@/components/records/RecordUnavailable.tsx";
import { Timeline } from "@/components/records/Timeline.tsx";
import { CustomFieldsBlock } from "@/components/records/custom-fields/CustomFieldsBlock.tsx";
import { useCanEditTask, useOrganizationTimeZone, useSetTaskDone } from "@/components/tasks/task-api.ts";
import { TaskDue, TaskPriorityBadge, TaskStatusBadge, useNow, useTaskTypeLabel } from "@/components/tasks/TaskBits.tsx";
import { isKnownTaskType, taskPriorities, taskStatuses, type TaskRelation } from "@/components/tasks/task-fields.ts";
import { formatZonedDateTime } from "@/lib/zoned-time.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { taskSchema, type Task } from "../api/tasks.ts";
import { taskFields } from "../utils/task-fields.ts";
import { TaskFormModal } from "../components/TaskFormModal.tsx";
import { RecordFieldGrid, RecordFieldItem } from "@/components/records/RecordFields.tsx";

/** One task: its fields and related records, its notes and history; done or open again, edited, deleted. */
export function TaskDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const task = useRecord("tasks", "task", id, taskSchema);
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.tasks ?? {};
  const canEditTask = useCanEditTask();
  const timeZone = useOrganizationTimeZone();
  const typeLabel = useTaskTypeLabel();
  const members = useOrganizationMembers();
  const setDone = useSetTaskDone();
  const remove = useDeleteRecords("tasks");
  const now = useNow();
  const [editing, setEditing] = useState(false);

  if (!task.isSuccess) return <RecordUnavailable query={task} module="tasks" />;
  const record = task.data;
  const canEdit = canEditTask(record);
  const done = record.status === "done";
  const when = (value: string | null) => (value ? formatZonedDateTime(value, i18n.resolvedLanguage, timeZone) : "—");
  const member = (memberId: unknown) => {
    const found = members.data?.find((candidate) => candidate.id === memberId);
    return found ? memberName(found) : null;
  };

  const toggleDone = () =>
    setDone.mutate(
      { task: record, done: !done },
      {
        onSuccess: () => notifySuccess(t(done ? "taskKit.reopened" : "taskKit.completed", { title: record.title })),
        onError: (error) =>
          notifyFailure(t(done ? "taskKit.reopenFailed" : "taskKit.completeFailed"), isStaleRecord(error) ? t("taskKit.stale") : t(recordFailureKey(error))),
      },
    );

  const details: [string, ReactNode][] = [
    [t("modules.tasks.fields.description"), record.description ?? "—"],
    [t("modules.tasks.fields.type"), typeLabel(record.type)],
    [t("modules.tasks.fields.priority"), <TaskPriorityBadge priority={record.priority} />],
    [t("modules.tasks.fields.status"), <TaskStatusBadge status={record.status} />],
    [t("modules.tasks.fields.due_at"), <TaskDue task={record} now={now} timeZone={timeZone} size="md" />],
    [t("modules.tasks.fields.remind_at"), when(record.remind_at)],
    [t("modules.tasks.fields.owner_id"), record.owner_name ?? "—"],
    [t("modules.tasks.fields.customer_id"), <RelatedLink relation="customer_id" id={record.customer_id} />],
    [t("modules.tasks.fields.contact_id"), <RelatedLink relation="contact_id" id={record.contact_id} />],
    [t("modules.tasks.fields.deal_id"), <RelatedLink relation="deal_id" id={record.deal_id} />],
    ...(record.completed_at
      ? ([[t("modules.tasks.fields.completed_at"), `${when(record.completed_at)}${member(record.completed_by) ? ` · ${member(record.completed_by)}` : ""}`]] as [string, ReactNode][])
      : []),
    [t("modules.tasks.fields.updated_at"), when(record.updated_at)],
  ];
  const fieldLabel = (field: string) =>
    (taskFields as readonly string[]).includes(field) || field === "completed_at" || field === "completed_by"
      ? t(`modules.tasks.fields.${field as (typeof taskFields)[number] | "completed_at" | "completed_by"}`)
      : field;
  const formatValue = (field: string, value: unknown): string | null => {
    if (value === null || value === undefined || value === "") return null;
    const text = String(value as string);
    if (field === "status" && (taskStatuses as readonly string[]).includes(text)) return t(`taskKit.statuses.${text as (typeof taskStatuses)[number]}`);
    if (field === "priority" && (taskPriorities as readonly string[]).includes(text)) return t(`taskKit.priorities.${text as (typeof taskPriorities)[number]}`);
    if (field === "type") return isKnownTaskType(text) ? t(`taskKit.types.${text}`) : text;
    if (field === "due_at" || field === "remind_at" || field === "completed_at") return when(text);
    if (field === "owner_id" || field === "completed_by") return member(text);
    return null;
  };

  return (
    <>
      <RecordDetailLayout
        record={{ module: "tasks", ownerId: record.owner_id }}
        title={record.title}
        subtitle={
          <Group gap="xs">
            <TaskStatusBadge status={record.status} />
            <TaskPriorityBadge priority={record.priority} />
            <TaskDue task={record} now={now} timeZone={timeZone} />
          </Group>
        }
        back={{ to: "/tasks", label: t("modules.tasks.backToList") }}
        extraActions={
          canEdit &&
          record.status !== "cancelled" && (
            <Button
              variant={done ? "default" : "filled"}
              color={done ? undefined : "green.9"}
              leftSection={done ? <IconRotate size={16} aria-hidden /> : <IconCheck size={16} aria-hidden />}
              loading={setDone.isPending}
              onClick={toggleDone}
            >
              {done ? t("modules.tasks.detail.reopen") : t("modules.tasks.detail.complete")}
            </Button>
          )
        }
        onEdit={canEdit ? () => setEditing(true) : undefined}
        deleting={remove.isPending}
        onDelete={
          allowed.delete !== undefined
            ? () =>
                remove.mutate([record.id], {
                  onSuccess: () => {
                    notifySuccess(t("modules.tasks.detail.deleted", { title: record.title }));
                    void navigate("/tasks");
                  },
                  onError: (error) => notifyFailure(t("modules.tasks.detail.deleteFailed"), t(recordFailureKey(error))),
                })
            : undefined
        }
        tabs={[
          {
            value: "info",
            label: t("modules.tasks.detail.tabs.info"),
            content: (
              <Stack gap="lg">
                <RecordFieldGrid>
                  {details.map(([label, value]) => (
                    <RecordFieldItem key={label} label={label}>
                      {value}
                    </RecordFieldItem>
                  ))}
                </RecordFieldGrid>
                <CustomFieldsBlock module="tasks" record={record} />
              </Stack>
            ),
          },
          {
            value: "timeline",
            label: t("modules.tasks.detail.tabs.timeline"),
            content: <Timeline module="tasks" id={record.id} fieldLabel={fieldLabel} formatValue={formatValue} canAddNote={canEdit} />,
          },
        ]}
      />
      {editing && <TaskFormModal task={record satisfies Task} onClose={() => setEditing(false)} />}
    </>
  );
}

const relatedRecords: Record<TaskRelation, { module: ModuleKey; entity: string; path: string }> = {
  customer_id: { module: "customers", entity: "customer", path: "/customers" },
  contact_id: { module: "contacts", entity: "contact", path: "/contacts" },
  deal_id: { module: "deals", entity: "deal", path: "/deals" },
};
const namedSchema = recordBaseSchema.extend({
  name: z.string().optional(),
  title: z.string().optional(),
  first_name: z.string().nullable().optional(),
  last_name: z.string().nullable().optional(),
});

/** A related record as a link to its page, named as its module names it. */
function RelatedLink({ relation, id }: { relation: TaskRelation; id: string | null }) {
  const { t } = useTranslation();
  const { module, entity, path } = relatedRecords[relation];
  const found = useRecord(module, entity, id ?? "", namedSchema);
  if (!id) return "—";
  const data = found.data;
  const name = data ? (data.name ?? data.title ?? ([data.first_name, data.last_name].filter(Boolean).join(" ") || null)) : null;
  if (found.isError) return <Text span c="dimmed">{t("modules.tasks.detail.relatedUnavailable")}</Text>;
  return (
    <Anchor component={Link} to={`${path}/${id}`}>
      {name ?? t("modules.tasks.detail.relatedOpen")}
    </Anchor>
  );
}

