import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { useDeleteTemplate } from "../api/templates.ts";
import type { DocumentTemplate } from "../api/schemas.ts";
import { notifyTemplateFailure } from "../utils/notify.ts";

interface Props {
  scope: OrganizationScope;
  template: DocumentTemplate | null;
  onClose(): void;
}

export function DeleteTemplateModal({ scope, template, onClose }: Props) {
  const { t } = useTranslation();
  const remove = useDeleteTemplate(scope);

  const confirm = () => {
    if (!template) return;
    remove.mutate(template.id, {
      onSuccess: () => {
        notifySuccess(t("adminTemplates.notifications.deleted", { name: template.name }));
        onClose();
      },
      onError: (error) => notifyTemplateFailure(t, error),
    });
  };

  return (
    <Modal
      opened={template !== null}
      onClose={onClose}
      title={t("adminTemplates.delete.title")}
      closeButtonProps={{ "aria-label": t("adminTemplates.close") }}
    >
      {template && (
        <Stack>
          <Text>{t("adminTemplates.delete.message", { name: template.name })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              {t("adminTemplates.cancel")}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={confirm}>
              {t("adminTemplates.delete.confirm")}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
