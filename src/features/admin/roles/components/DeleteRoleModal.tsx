import { Alert, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { useDeleteRole } from "../api/roles.ts";
import type { Role } from "../api/schemas.ts";
import { roleError, type RoleError } from "../utils/role-errors.ts";

interface Props {
  scope: OrganizationScope;
  role: Role | null;
  onClose: () => void;
  onDeleted: () => void;
}

export function DeleteRoleModal({ role, onClose, ...rest }: Props) {
  const { t } = useTranslation();
  return (
    <Modal opened={role !== null} onClose={onClose} title={t("adminRoles.deleteModal.title")} closeButtonProps={{ "aria-label": t("adminRoles.close") }}>
      {role && <DeleteRoleBody key={role.key} role={role} onClose={onClose} {...rest} />}
    </Modal>
  );
}

/** Asks first; a role still held by members is refused with their number. */
function DeleteRoleBody({ scope, role, onClose, onDeleted }: Omit<Props, "role"> & { role: Role }) {
  const { t } = useTranslation();
  const remove = useDeleteRole(scope);
  const [failure, setFailure] = useState<RoleError | null>(null);

  const onConfirm = () => {
    setFailure(null);
    remove.mutate(role.key, {
      onSuccess: () => {
        notifySuccess(t("adminRoles.deleteModal.deleted", { name: role.name }));
        onDeleted();
      },
      onError: (error) => setFailure(roleError(error)),
    });
  };

  return (
    <Stack>
      <Text>{t("adminRoles.deleteModal.confirm", { name: role.name })}</Text>
      {failure && (
        <Alert color="red" role="alert">
          {t(failure.key, { count: failure.count ?? 0 })}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          {t("adminRoles.cancel")}
        </Button>
        <Button color="red.9" onClick={onConfirm} loading={remove.isPending}>
          {t("adminRoles.deleteModal.submit")}
        </Button>
      </Group>
    </Stack>
  );
}
