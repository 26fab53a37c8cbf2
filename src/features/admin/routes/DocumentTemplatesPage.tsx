import { Button, Card, Group, Stack, Tabs, Text, Title } from "@mantine/core";
import { IconPlus } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { templateKinds, type TemplateKind } from "@/lib/document-template/placeholders.ts";
import type { DocumentTemplate } from "../templates/api/schemas.ts";
import { useDocumentTemplates, useSaveTemplate } from "../templates/api/templates.ts";
import { DeleteTemplateModal } from "../templates/components/DeleteTemplateModal.tsx";
import { TemplateEditorModal } from "../templates/components/TemplateEditorModal.tsx";
import { MailTemplatesCard } from "../templates/components/MailTemplatesCard.tsx";
import { TemplatesTable, type TemplateAction } from "../templates/components/TemplatesTable.tsx";
import { notifyTemplateFailure } from "../templates/utils/notify.ts";
import { LoadError } from "@/components/LoadError.tsx";

type Editing = { template: DocumentTemplate | null } | null;

/** Admin page "documentTemplates": the organization's quote and contract templates, and its e-mail templates. */
export function DocumentTemplatesPage() {
  const { t } = useTranslation();
  const scope = useOrganizationScope();
  const templates = useDocumentTemplates(scope);
  const save = useSaveTemplate(scope);
  const [kind, setKind] = useState<TemplateKind>("quote");
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<DocumentTemplate | null>(null);

  const byKind = useMemo(() => {
    const all = templates.data ?? [];
    return { quote: all.filter((item) => item.kind === "quote"), contract: all.filter((item) => item.kind === "contract") };
  }, [templates.data]);

  const makeDefault = (template: DocumentTemplate) =>
    save.mutate(
      { id: template.id, kind: template.kind, name: template.name, body: template.body, isDefault: true },
      {
        onSuccess: () => notifySuccess(t("adminTemplates.notifications.madeDefault", { name: template.name })),
        onError: (error) => notifyTemplateFailure(t, error),
      },
    );

  const onAction = (action: TemplateAction, template: DocumentTemplate) => {
    if (action === "edit") setEditing({ template });
    else if (action === "delete") setDeleting(template);
    else makeDefault(template);
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>{t("admin.sections.documentTemplates.title")}</Title>
          <Text c="dimmed">{t("admin.sections.documentTemplates.description")}</Text>
        </Stack>
        <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing({ template: null })}>
          {t("adminTemplates.create")}
        </Button>
      </Group>

      <Card withBorder padding="lg">
        <Tabs value={kind} onChange={(value) => setKind(value === "contract" ? "contract" : "quote")}>
          <Tabs.List mb="md">
            {templateKinds.map((value) => (
              <Tabs.Tab key={value} value={value}>
                {t(`adminTemplates.tabs.${value}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {templateKinds.map((value) => (
            <Tabs.Panel key={value} value={value}>
              {templates.isPending ? (
                <LoadingScreen compact />
              ) : templates.isError ? (
                <LoadError title={t("adminTemplates.loadError")} onRetry={() => void templates.refetch()} />
              ) : byKind[value].length === 0 ? (
                <Text>{t(`adminTemplates.empty.${value}`)}</Text>
              ) : (
                <TemplatesTable
                  templates={byKind[value]}
                  label={t(`adminTemplates.tabs.${value}`)}
                  pendingId={save.isPending ? (save.variables.id ?? null) : null}
                  onAction={onAction}
                />
              )}
            </Tabs.Panel>
          ))}
        </Tabs>
      </Card>

      <MailTemplatesCard scope={scope} />

      {editing && (
        <TemplateEditorModal scope={scope} template={editing.template} kind={kind} onClose={() => setEditing(null)} />
      )}
      <DeleteTemplateModal scope={scope} template={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
