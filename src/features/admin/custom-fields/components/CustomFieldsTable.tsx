import { ActionIcon, Group, Table, Text, VisuallyHidden } from "@mantine/core";
import { IconArrowDown, IconArrowUp, IconCheck, IconEdit, IconTrash } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { customLabel, type CustomField } from "@/components/records/custom-fields/custom-fields.ts";

export type CustomFieldAction = "moveUp" | "moveDown" | "edit" | "delete";

interface Props {
  fields: readonly CustomField[];
  label: string;
  /** While fields are being moved, no other move starts. */
  moving: boolean;
  onAction(action: CustomFieldAction, field: CustomField, index: number): void;
}

/** A flag as a tick, read out as Evet/Hayır. */
function Flag({ on }: { on: boolean }) {
  const { t } = useTranslation();
  return on ? (
    <>
      <IconCheck size={18} aria-hidden />
      <VisuallyHidden>{t("common.yes")}</VisuallyHidden>
    </>
  ) : (
    <>
      <Text span c="dimmed" aria-hidden>
        —
      </Text>
      <VisuallyHidden>{t("common.no")}</VisuallyHidden>
    </>
  );
}

/** A module's custom fields in the admin's order: each with its type in words, its flags, and what can be done with it. */
export function CustomFieldsTable({ fields, label, moving, onAction }: Props) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={720} type="native" tabIndex={0}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t("adminCustomFields.columns.label")}</Table.Th>
            <Table.Th scope="col">{t("adminCustomFields.columns.type")}</Table.Th>
            <Table.Th scope="col">{t("adminCustomFields.columns.required")}</Table.Th>
            <Table.Th scope="col">{t("adminCustomFields.columns.listed")}</Table.Th>
            <Table.Th scope="col">{t("adminCustomFields.columns.filterable")}</Table.Th>
            <Table.Th scope="col">{t("adminCustomFields.columns.hidden")}</Table.Th>
            <Table.Th scope="col">{t("adminCustomFields.columns.actions")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((field, index) => {
            const name = customLabel(field, i18n.resolvedLanguage);
            return (
              <Table.Tr key={field.key}>
                <Table.Td>
                  <Text size="sm" fw={500} c={field.hidden ? "dimmed" : undefined}>
                    {name}
                  </Text>
                </Table.Td>
                <Table.Td>{t(`adminCustomFields.types.${field.type}`)}</Table.Td>
                <Table.Td><Flag on={field.required} /></Table.Td>
                <Table.Td><Flag on={field.listed} /></Table.Td>
                <Table.Td><Flag on={field.filterable} /></Table.Td>
                <Table.Td><Flag on={field.hidden} /></Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap">
                    <ActionIcon variant="subtle" disabled={index === 0 || moving} aria-label={t("adminCustomFields.actions.moveUp", { label: name })}
                      onClick={() => onAction("moveUp", field, index)}>
                      <IconArrowUp size={16} aria-hidden />
                    </ActionIcon>
                    <ActionIcon variant="subtle" disabled={index === fields.length - 1 || moving}
                      aria-label={t("adminCustomFields.actions.moveDown", { label: name })} onClick={() => onAction("moveDown", field, index)}>
                      <IconArrowDown size={16} aria-hidden />
                    </ActionIcon>
                    <ActionIcon variant="subtle" aria-label={t("adminCustomFields.actions.edit", { label: name })} onClick={() => onAction("edit", field, index)}>
                      <IconEdit size={16} aria-hidden />
                    </ActionIcon>
                    <ActionIcon variant="subtle" color="red" aria-label={t("adminCustomFields.actions.delete", { label: name })}
                      onClick={() => onAction("delete", field, index)}>
                      <IconTrash size={16} aria-hidden />
                    </ActionIcon>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
