import { Button, Group, Stack, Text, Title } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { taskRelations, type TaskRelation } from "@/components/tasks/task-fields.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { TaskFormModal } from "../components/TaskFormModal.tsx";
import { TaskList } from "../components/TaskList.tsx";
import { isTaskView, type TaskView } from "../utils/task-views.ts";

/**
 * The tasks module: the list with its views (?view=overdue...; mine by default) and a new
 * task's form (?new=1, with ?customer_id=, ?contact_id= or ?deal_id= when it comes from
 * that record's page).
 */
export function TasksPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const permissions = useMyPermissions();
  const canCreate = permissions.data?.permissions.tasks?.create !== undefined;
  const requested = params.get("view");
  const view: TaskView = isTaskView(requested) ? requested : "mine";
  const creating = params.get("new") === "1";
  const related: Partial<Record<TaskRelation, string>> = {};
  for (const relation of taskRelations) {
    const id = params.get(relation);
    if (id) related[relation] = id;
  }

  const setView = (next: TaskView) => setParams(next === "mine" ? {} : { view: next }, { replace: true });
  const openForm = () => setParams((current) => ({ ...Object.fromEntries(current), new: "1" }), { replace: true });
  const closeForm = () => setParams(view === "mine" ? {} : { view }, { replace: true });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: "1 1 16rem" }}>
          <Title order={1}>{t("modules.tasks.title")}</Title>
          <Text c="dimmed">{t("modules.tasks.description")}</Text>
        </Stack>
        {canCreate && (
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={openForm}>
            {t("modules.tasks.newTask")}
          </Button>
        )}
      </Group>
      <TaskList view={view} onViewChange={setView} />
      {creating && canCreate && <TaskFormModal related={related} onClose={closeForm} />}
    </Stack>
  );
}
