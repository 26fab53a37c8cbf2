import { Alert, Button, Group, Loader, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { customLabel, type CustomField } from "@/components/records/custom-fields/custom-fields.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { useCustomFieldValueCount, useDeleteCustomField } from "../api/custom-fields-admin.ts";
import { customFieldFailure } from "../utils/custom-field-errors.ts";
import { valueCountText } from "../utils/value-count.ts";

/** Asks before a field is deleted, saying how many records hold a value that goes with it. */
export function DeleteCustomFieldModal({ module, field, onClose }: { module: ModuleKey; field: CustomField | null; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const count = useCustomFieldValueCount(module, field?.key ?? null);
  const remove = useDeleteCustomField(module);
  const label = field ? customLabel(field, language) : "";

  const confirm = () => {
    if (!field) return;
    remove.mutate(field.key, {
      onSuccess: () => {
        notifySuccess(t("adminCustomFields.notifications.deleted", { label }));
        onClose();
      },
      onError: (error) => {
        const { message } = customFieldFailure(error);
        notifyFailure(t("adminCustomFields.errors.title"), t(message.key, message.values ?? {}));
      },
    });
  };

  return (
    <Modal opened={field !== null} onClose={onClose} title={t("adminCustomFields.delete.title")}
      closeButtonProps={{ "aria-label": t("adminCustomFields.editor.close") }}>
      {field && (
        <Stack>
          <Text>{t("adminCustomFields.delete.message", { label })}</Text>
          {count.isPending ? (
            <Group gap="xs">
              <Loader size="xs" />
              <Text size="sm">{t("adminCustomFields.delete.counting")}</Text>
            </Group>
          ) : (
            <Alert color={count.isError || (count.data?.count ?? 0) > 0 ? "orange" : "gray"} role="status">
              {count.isError
                ? t("adminCustomFields.delete.countFailed")
                : count.data.count === 0
                  ? t("adminCustomFields.delete.noValues")
                  : t("adminCustomFields.delete.values", { count: valueCountText(count.data.count, count.data.exact, language) })}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} data-autofocus>
              {t("adminCustomFields.delete.cancel")}
            </Button>
            <Button color="red" loading={remove.isPending} disabled={count.isPending} onClick={confirm}>
              {t("adminCustomFields.delete.confirm")}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
