import { zodResolver } from "@hookform/resolvers/zod";
import { NativeSelect, SimpleGrid, Textarea, TextInput } from "@mantine/core";
import { Controller } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { memberName, useOrganizationMembers } from "@/components/records/record-api.ts";
import { RecordFormModal } from "@/components/records/RecordFormModal.tsx";
import { RecordPicker } from "@/components/records/RecordPicker.tsx";
import { useRecordForm } from "@/components/records/use-record-form.ts";
import { useOrganizationTimeZone } from "@/components/tasks/task-api.ts";
import { useTaskTypeLabel } from "@/components/tasks/TaskBits.tsx";
import { taskPriorities, taskStatuses, type TaskRelation } from "@/components/tasks/task-fields.ts";
import { formMessage } from "@/i18n/form-message.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { taskSchema, type Task } from "../api/tasks.ts";
import { taskFields } from "../utils/task-fields.ts";
import { emptyTaskForm, taskChangesOf, taskFieldErrorKey, taskFormOf, taskFormSchema, taskValuesOf, type TaskFormValues } from "../utils/task-form.ts";

interface Props {
  onClose(): void;
  /** The task being edited; absent for a new one. */
  task?: Task;
  /** A new task's related record (from a customer's, contact's or deal's page). */
  related?: Partial<Record<TaskRelation, string>>;
}

/**
 * Creates or edits a task: title, description, type (the organization's task types),
 * priority, status, due time and reminder (on the organization's clock), who does it, and
 * the customer, contact and deal it is about. The database's field errors land on their
 * fields; a task changed by someone else meanwhile offers its latest version.
 */
export function TaskFormModal({ onClose, task, related }: Props) {
  const { t } = useTranslation();
  const session = useSignedInSession();
  const timeZone = useOrganizationTimeZone();
  const settings = useOrganizationSettings();
  const typeLabel = useTaskTypeLabel();
  const permissions = useMyPermissions();
  const members = useOrganizationMembers();
  // Whoever may create or edit every task may give it to anyone; the others only to themselves.
  const scope = permissions.data?.permissions.tasks?.[task ? "edit" : "create"];
  const chooseOwner = scope === "all";
  const record = useRecordForm({
    module: "tasks",
    entity: "task",
    schema: taskSchema,
    fields: taskFields,
    resolver: zodResolver(taskFormSchema),
    formOf: (saved?: Task) => (saved ? taskFormOf(saved, timeZone) : emptyTaskForm(session.user.id, related)),
    valuesOf: (form, base) => (base ? taskChangesOf(form, base, timeZone, chooseOwner) : taskValuesOf(form, timeZone, chooseOwner)),
    changesOnly: true,
    fieldErrorKey: taskFieldErrorKey,
    failedTitle: t("modules.tasks.form.failed"),
    notice: (saved) => ({ title: saved.title }),
    record: task,
    onClose,
  });
  const base = record.base;
  const {
    register,
    control,
    formState: { errors },
  } = record.form;

  const error = (name: keyof TaskFormValues) => formMessage(t, errors[name]?.message);
  const field = (name: keyof TaskFormValues) => ({ label: t(`modules.tasks.fields.${name}`), error: error(name) });
  const types = settings.data?.task_types ?? [];
  const typeOptions = [
    { value: "", label: t("modules.tasks.form.noType") },
    ...types.map((value) => ({ value, label: typeLabel(value) })),
    // A type the organization has since removed stays shown on the task that has it.
    ...(base?.type && !types.includes(base.type) ? [{ value: base.type, label: typeLabel(base.type) }] : []),
  ];
  const memberOptions = (members.data ?? []).map((member) => ({ value: member.id, label: memberName(member) }));
  const ownerId = base?.owner_id ?? session.user.id;
  const owner = memberOptions.find((option) => option.value === ownerId) ?? { value: ownerId, label: base?.owner_name ?? t("modules.tasks.form.me") };
  const ownerOptions = chooseOwner ? [owner, ...memberOptions.filter((option) => option.value !== ownerId)] : [owner];
  const timeHint = t("modules.tasks.form.timeHint", { zone: timeZone });

  return (
    <RecordFormModal record={record}>
      <TextInput {...field("title")} required maxLength={200} data-autofocus {...register("title")} />
      <Textarea {...field("description")} autosize minRows={2} maxLength={10000} {...register("description")} />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={control}
          name="type"
          render={({ field: input }) => (
            <NativeSelect {...field("type")} data={typeOptions} value={input.value} onChange={(event) => input.onChange(event.currentTarget.value)} />
          )}
        />
        <Controller
          control={control}
          name="owner_id"
          render={({ field: input }) => (
            <NativeSelect
              {...field("owner_id")}
              description={chooseOwner ? undefined : t("modules.tasks.form.ownerHint")}
              disabled={!chooseOwner}
              data={ownerOptions}
              value={input.value}
              onChange={(event) => input.onChange(event.currentTarget.value)}
            />
          )}
        />
        <NativeSelect
          {...field("priority")}
          data={taskPriorities.map((value) => ({ value, label: t(`taskKit.priorities.${value}`) }))}
          {...register("priority")}
        />
        <NativeSelect
          {...field("status")}
          data={taskStatuses.map((value) => ({ value, label: t(`taskKit.statuses.${value}`) }))}
          {...register("status")}
        />
        <TextInput {...field("due_at")} type="datetime-local" description={timeHint} {...register("due_at")} />
        <TextInput {...field("remind_at")} type="datetime-local" description={timeHint} {...register("remind_at")} />
        <Controller
          control={control}
          name="customer_id"
          render={({ field: input }) => (
            <RecordPicker
              module="customers"
              entity="customer"
              titleColumn="name"
              label={t("modules.tasks.fields.customer_id")}
              placeholder={t("modules.tasks.form.customerPlaceholder")}
              nothingFound={t("modules.tasks.form.noCustomer")}
              value={input.value}
              onChange={input.onChange}
              error={error("customer_id")}
            />
          )}
        />
        <Controller
          control={control}
          name="contact_id"
          render={({ field: input }) => (
            <RecordPicker
              module="contacts"
              entity="contact"
              titleColumn="last_name"
              labelColumns={["first_name"]}
              labelOf={contactName}
              label={t("modules.tasks.fields.contact_id")}
              placeholder={t("modules.tasks.form.contactPlaceholder")}
              nothingFound={t("modules.tasks.form.noContact")}
              value={input.value}
              onChange={input.onChange}
              error={error("contact_id")}
            />
          )}
        />
        <Controller
          control={control}
          name="deal_id"
          render={({ field: input }) => (
            <RecordPicker
              module="deals"
              entity="deal"
              titleColumn="title"
              label={t("modules.tasks.fields.deal_id")}
              placeholder={t("modules.tasks.form.dealPlaceholder")}
              nothingFound={t("modules.tasks.form.noDeal")}
              value={input.value}
              onChange={input.onChange}
              error={error("deal_id")}
            />
          )}
        />
      </SimpleGrid>
    </RecordFormModal>
  );
}

const contactName = (contact: Record<string, string | null>) =>
  [contact.first_name, contact.last_name].filter(Boolean).join(" ") || "—";

