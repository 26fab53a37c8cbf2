import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { useUpdateOrganization } from "../api/organizations.ts";
import type { ManagedOrganization } from "../api/schemas.ts";
import { notifyOrganizationFailure } from "../utils/notify.ts";
import { organizationError } from "../utils/organization-errors.ts";

interface Props {
  userId: string;
  /** The organization to deactivate (if active) or reactivate (if not). */
  organization: ManagedOrganization | null;
  onClose: () => void;
}

/**
 * Confirms deactivating or reactivating an organization. Deactivation takes effect at once:
 * the database takes every open session out of the organization.
 */
export function ConfirmActivityModal({ userId, organization, onClose }: Props) {
  const { t } = useTranslation();
  const update = useUpdateOrganization(userId);
  const deactivating = organization?.is_active ?? true;

  const close = () => {
    update.reset();
    onClose();
  };

  const confirm = () => {
    if (!organization) return;
    update.mutate(
      { organizationId: organization.id, changes: { is_active: !organization.is_active } },
      {
        onSuccess: () => {
          const done = deactivating ? "organizationManager.confirm.deactivated" : "organizationManager.confirm.reactivated";
          notifySuccess(t(done, { name: organization.name }));
          close();
        },
        onError: (error) => notifyOrganizationFailure(t, organizationError(error)),
      },
    );
  };

  return (
    <Modal
      opened={organization !== null}
      onClose={close}
      closeButtonProps={{ "aria-label": t("organizationManager.close") }}
      title={t(deactivating ? "organizationManager.confirm.deactivateTitle" : "organizationManager.confirm.reactivateTitle")}
    >
      {organization && (
        <Stack>
          <Text>
            {t(deactivating ? "organizationManager.confirm.deactivateMessage" : "organizationManager.confirm.reactivateMessage", {
              name: organization.name,
            })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={close} data-autofocus>
              {t("organizationManager.cancel")}
            </Button>
            <Button color={deactivating ? "red" : "green"} loading={update.isPending} onClick={confirm}>
              {t(deactivating ? "organizationManager.deactivate" : "organizationManager.reactivate")}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
