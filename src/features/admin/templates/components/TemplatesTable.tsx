import { Badge, Button, Group, Table, Text } from "@mantine/core";
import { IconEdit, IconStar, IconTrash } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { formatDateTime } from "@/lib/format.ts";
import type { DocumentTemplate } from "../api/schemas.ts";

export type TemplateAction = "edit" | "makeDefault" | "delete";

interface Props {
  templates: DocumentTemplate[];
  label: string;
  /** The template whose "make default" is under way. */
  pendingId: string | null;
  onAction(action: TemplateAction, template: DocumentTemplate): void;
}

export function TemplatesTable({ templates, label, pendingId, onAction }: Props) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={640} type="native" tabIndex={0}>
      <Table striped highlightOnHover aria-label={label}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t("adminTemplates.list.name")}</Table.Th>
            <Table.Th scope="col">{t("adminTemplates.list.updatedAt")}</Table.Th>
            <Table.Th scope="col">{t("adminTemplates.list.actions")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {templates.map((template) => (
            <Table.Tr key={template.id}>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm" fw={500}>
                    {template.name}
                  </Text>
                  {template.is_default && (
                    <Badge color="teal" variant="light">
                      {t("adminTemplates.list.default")}
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>{formatDateTime(template.updated_at, i18n.language)}</Table.Td>
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Button size="compact-sm" variant="subtle" leftSection={<IconEdit size={16} aria-hidden />} onClick={() => onAction("edit", template)}>
                    {t("adminTemplates.list.edit")}
                  </Button>
                  {!template.is_default && (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      leftSection={<IconStar size={16} aria-hidden />}
                      loading={pendingId === template.id}
                      onClick={() => onAction("makeDefault", template)}
                    >
                      {t("adminTemplates.list.makeDefault")}
                    </Button>
                  )}
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    leftSection={<IconTrash size={16} aria-hidden />}
                    onClick={() => onAction("delete", template)}
                  >
                    {t("adminTemplates.list.delete")}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
