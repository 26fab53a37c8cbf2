import { Button, Group, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { IconPencil } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import type { ModuleKey } from "@/modules/registry.ts";
import { CustomFieldValue } from "./CustomFieldValue.tsx";
import { customLabel, shownCustomFields, useCustomFields } from "./custom-fields.ts";

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
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" component="dl" m={0}>
        {fields.map((field) => (
          <Stack key={field.key} gap={2}>
            <Text component="dt" size="sm" c="dimmed">
              {customLabel(field, i18n.resolvedLanguage)}
            </Text>
            <Text component="dd" m={0} style={{ overflowWrap: "anywhere" }}>
              <CustomFieldValue field={field} record={values} />
            </Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
