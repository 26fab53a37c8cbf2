import { Button, Group, Stack, Title } from "@mantine/core";
import { IconPencil } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import type { ModuleKey } from "@/modules/registry.ts";
import { CustomFieldValue } from "./CustomFieldValue.tsx";
import { customLabel, shownCustomFields, useCustomFields } from "./custom-fields.ts";
import { RecordFieldGrid, RecordFieldItem } from "../RecordFields.tsx";

/**
 * The "Özel alanlar" block of a record page: each shown custom field's label and value, in
 * the admin's order; nothing when the module has none. onEdit offers their own edit form
 * (for a module whose record has no form of its own: documents).
 */
export function CustomFieldsBlock({ module, record, onEdit }: { module: ModuleKey; record: object; onEdit?: () => void }) {
  const { t, i18n } = useTranslation();
  const fields = shownCustomFields(useCustomFields(module).data);
  if (fields.length === 0) return null;
  const values = record as Record<string, unknown>;
  return (
    <Stack gap="sm" component="section" aria-label={t("customFields.detail.title")}>
      <Group justify="space-between">
        <Title order={2} size="h4">
          {t("customFields.detail.title")}
        </Title>
        {onEdit && (
          <Button variant="light" size="xs" leftSection={<IconPencil size={14} aria-hidden />} onClick={onEdit}>
            {t("customFields.detail.edit")}
          </Button>
        )}
      </Group>
      <RecordFieldGrid>
        {fields.map((field) => (
          <RecordFieldItem key={field.key} label={customLabel(field, i18n.resolvedLanguage)}>
            <CustomFieldValue field={field} record={values} />
          </RecordFieldItem>
        ))}
      </RecordFieldGrid>
    </Stack>
  );
}
