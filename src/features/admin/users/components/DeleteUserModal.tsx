import { Alert, Button, Group, List, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { displayName } from "@/lib/display-name.ts";
import { useUserAction } from "../api/mutations.ts";
import type { OrganizationUser } from "../api/schemas.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { isRecordTable, userAdminError } from "../utils/user-errors.ts";
import { notifyUserFailure } from "./notify.ts";

interface Props {
  scope: OrganizationScope;
  user: OrganizationUser;
  onClose(): void;
  /** has_records: the records must go to someone else first. */
  onTransfer(user: OrganizationUser): void;
}

/** Asks before deleting; a user who still owns records is offered the transfer instead. */
export function DeleteUserModal({ scope, user, onClose, onTransfer }: Props) {
  const { t } = useTranslation();
  const remove = useUserAction(scope);
  const failure = remove.isError ? userAdminError(remove.error) : undefined;
  const records = failure?.records;

  const onDelete = () =>
    remove.mutate(
      { action: "delete", user_id: user.id },
      {
        onSuccess: () => {
          notifySuccess(t("adminUsers.notifications.deleted"));
          onClose();
        },
        onError: (error) => {
          if (userAdminError(error).records === undefined) notifyUserFailure(t, error);
        },
      },
    );

  return (
    <Modal opened onClose={onClose} title={t("adminUsers.deleteModal.title")} closeButtonProps={{ "aria-label": t("adminUsers.form.close") }}>
      <Stack>
        {records ? (
          <Alert color="orange" title={t("adminUsers.deleteModal.hasRecords")}>
            <List size="sm" mt="xs">
              {Object.entries(records).map(([table, count]) => (
                <List.Item key={table}>
                  {isRecordTable(table) ? t(`adminUsers.records.${table}`) : table}: {count}
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : (
          <Text>{t("adminUsers.deleteModal.confirm", { name: displayName(user) })}</Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t("adminUsers.form.cancel")}
          </Button>
          {records ? (
            <Button onClick={() => onTransfer(user)} data-autofocus>
              {t("adminUsers.deleteModal.transferFirst")}
            </Button>
          ) : (
            <Button color="red" loading={remove.isPending} onClick={onDelete}>
              {t("adminUsers.deleteModal.submit")}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
