import { Button, Card, Group, Select, Stack, Text, Title } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { MAX_CUSTOM_FIELDS, useCustomFields, type CustomField } from "@/components/records/custom-fields/custom-fields.ts";
import { modules, type ModuleKey } from "@/modules/registry.ts";
import { useSwapCustomFields } from "../custom-fields/api/custom-fields-admin.ts";
import { CustomFieldEditorModal } from "../custom-fields/components/CustomFieldEditorModal.tsx";
import { CustomFieldsTable, type CustomFieldAction } from "../custom-fields/components/CustomFieldsTable.tsx";
import { DeleteCustomFieldModal } from "../custom-fields/components/DeleteCustomFieldModal.tsx";
import { customFieldFailure } from "../custom-fields/utils/custom-field-errors.ts";

type Editing = { field: CustomField | null } | null;

/**
 * Admin page "customFields": a sales module's custom fields, in the order its forms and pages
 * show them; added, changed, moved and deleted here.
 */
export function CustomFieldsPage() {
  const { t } = useTranslation();
  const [module, setModule] = useState<ModuleKey>("customers");
  const fields = useCustomFields(module);
  const swap = useSwapCustomFields(module);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<CustomField | null>(null);
  // The organization's own fields (the module's standard ones are the product's).
  const list = (fields.data ?? []).filter((field) => !field.standard);
  const moduleTitle = t(`modules.${module}.title`);

  const onAction = (action: CustomFieldAction, field: CustomField, index: number) => {
    if (action === "edit") setEditing({ field });
    else if (action === "delete") setDeleting(field);
    else {
      const neighbour = list[action === "moveUp" ? index - 1 : index + 1];
      swap.mutate([field, neighbour], {
        onSuccess: () => notifySuccess(t("adminCustomFields.notifications.moved")),
        onError: (error) => {
          const { message } = customFieldFailure(error);
          notifyFailure(t("adminCustomFields.errors.title"), t(message.key, message.values ?? {}));
        },
      });
    }
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>{t("admin.sections.customFields.title")}</Title>
          <Text c="dimmed">{t("admin.sections.customFields.description")}</Text>
        </Stack>
        <Button leftSection={<IconPlus size={18} aria-hidden />} disabled={!fields.isSuccess || list.length >= MAX_CUSTOM_FIELDS}
          onClick={() => setEditing({ field: null })}>
          {t("adminCustomFields.create")}
        </Button>
      </Group>

      <Card withBorder padding="lg">
        <Stack>
          <Group justify="space-between" align="flex-end">
            <Select
              label={t("adminCustomFields.moduleLabel")}
              allowDeselect={false}
              data={modules.map((entry) => ({ value: entry.key, label: t(`modules.${entry.key}.title`) }))}
              value={module}
              onChange={(value) => value && setModule(value as ModuleKey)}
              w={260}
            />
            {fields.isSuccess && (
              <Text size="sm" c={list.length >= MAX_CUSTOM_FIELDS ? "orange" : "dimmed"}>
                {t("adminCustomFields.limit", { count: list.length, limit: MAX_CUSTOM_FIELDS })}
              </Text>
            )}
          </Group>
          {fields.isPending ? (
            <LoadingScreen compact />
          ) : fields.isError ? (
            <LoadError title={t("adminCustomFields.loadError")} onRetry={() => void fields.refetch()} />
          ) : list.length === 0 ? (
            <Text>{t("adminCustomFields.empty")}</Text>
          ) : (
            <CustomFieldsTable fields={list} label={t("adminCustomFields.tableLabel", { module: moduleTitle })} moving={swap.isPending} onAction={onAction} />
          )}
        </Stack>
      </Card>

      {editing && <CustomFieldEditorModal key={module} module={module} field={editing.field} onClose={() => setEditing(null)} />}
      <DeleteCustomFieldModal module={module} field={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
