import { Badge, Button, Card, Stack, Table, Text, Title } from "@mantine/core";
import { IconEdit } from "@tabler/icons-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { useMailTemplates, type MailTemplate } from "../api/mail-templates.ts";
import { MailTemplateEditorModal } from "./MailTemplateEditorModal.tsx";

/** The organization's e-mail templates (each kind in Turkish and English), beside its PDF templates, each opened in the editor. */
export function MailTemplatesCard({ scope }: { scope: OrganizationScope }) {
  const { t } = useTranslation();
  const titleId = useId();
  const templates = useMailTemplates(scope);
  const [editing, setEditing] = useState<MailTemplate | null>(null);

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={titleId}>
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} size="h3" id={titleId}>
            {t("adminTemplates.mail.title")}
          </Title>
          <Text c="dimmed" size="sm">
            {t("adminTemplates.mail.description")}
          </Text>
        </Stack>
        {templates.isPending ? (
          <LoadingScreen compact />
        ) : templates.isError ? (
          <LoadError title={t("adminTemplates.mail.loadError")} onRetry={() => void templates.refetch()} />
        ) : (
          <Table.ScrollContainer minWidth={640} type="native" tabIndex={0}>
            <Table striped highlightOnHover aria-label={t("adminTemplates.mail.title")}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">{t("adminTemplates.mail.list.kind")}</Table.Th>
                  <Table.Th scope="col">{t("adminTemplates.mail.list.language")}</Table.Th>
                  <Table.Th scope="col">{t("adminTemplates.mail.list.subject")}</Table.Th>
                  <Table.Th scope="col">{t("adminTemplates.list.actions")}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {templates.data.map((template) => {
                  const what = { kind: t(`adminTemplates.mail.kinds.${template.kind}`), language: t(`adminTemplates.mail.languages.${template.language}`) };
                  return (
                    <Table.Tr key={`${template.kind}:${template.language}`}>
                      <Table.Td>{what.kind}</Table.Td>
                      <Table.Td>{what.language}</Table.Td>
                      <Table.Td>
                        <Text size="sm" lineClamp={1}>
                          {template.subject}
                        </Text>
                        <Badge color={template.customized ? "teal" : "gray"} variant="light" mt={4}>
                          {t(template.customized ? "adminTemplates.mail.list.customized" : "adminTemplates.mail.list.productText")}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          leftSection={<IconEdit size={16} aria-hidden />}
                          aria-label={t("adminTemplates.mail.list.edit", what)}
                          onClick={() => setEditing(template)}
                        >
                          {t("adminTemplates.list.edit")}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      {editing && <MailTemplateEditorModal scope={scope} template={editing} onClose={() => setEditing(null)} />}
    </Card>
  );
}
