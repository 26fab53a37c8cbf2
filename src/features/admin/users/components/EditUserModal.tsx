import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Checkbox, Group, Modal, NativeSelect, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { roleOptions, useRoleNames } from "@/components/roles/role-names.ts";
import { useUserAction } from "../api/mutations.ts";
import type { OrganizationUser } from "../api/schemas.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { userAdminError } from "../utils/user-errors.ts";
import { editUserSchema, editValuesOf, userDataChanges, type EditUserValues } from "../utils/user-forms.ts";
import { formMessage } from "@/i18n/form-message.ts";

interface Props {
  scope: OrganizationScope;
  user: OrganizationUser;
  onClose(): void;
}

/** Edits a member's names, email, role in the organization and whether they are active in it. */
export function EditUserModal({ scope, user, onClose }: Props) {
  const { t } = useTranslation();
  const update = useUserAction(scope);
  const self = user.id === scope.sessionUserId;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isDirty },
  } = useForm<EditUserValues>({ resolver: zodResolver(editUserSchema), defaultValues: editValuesOf(user) });

  const failure = update.isError ? userAdminError(update.error) : undefined;
  const roleNames = useRoleNames();

  const onSubmit = handleSubmit((values) => {
    const changes = userDataChanges(user, values);
    if (Object.keys(changes).length === 0) {
      onClose();
      return;
    }
    update.mutate(
      { action: "update", user_id: user.id, user_data: changes },
      {
        onSuccess: () => {
          notifySuccess(t("adminUsers.notifications.updated"));
          onClose();
        },
        onError: (error) => {
          const { field, key } = userAdminError(error);
          if (field && field !== "password") setError(field, { type: "server", message: key }, { shouldFocus: true });
        },
      },
    );
  });

  return (
    <Modal opened onClose={onClose} title={t("adminUsers.editModal.title")} closeButtonProps={{ "aria-label": t("adminUsers.form.close") }} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {failure && (!failure.field || failure.field === "password") && <Alert color="red">{t(failure.key)}</Alert>}
          <TextInput
            {...register("email")}
            type="email"
            label={t("adminUsers.form.email")}
            autoComplete="off"
            required
            error={formMessage(t, errors.email?.message)}
            data-autofocus
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput
              {...register("firstName")}
              label={t("adminUsers.form.firstName")}
              autoComplete="off"
              error={formMessage(t, errors.firstName?.message)}
            />
            <TextInput
              {...register("lastName")}
              label={t("adminUsers.form.lastName")}
              autoComplete="off"
              error={formMessage(t, errors.lastName?.message)}
            />
          </SimpleGrid>
          {/* The database refuses a change of one's own role or status: shown, not editable. */}
          <NativeSelect
            {...(self ? { value: user.organization_role, disabled: true } : register("role"))}
            label={t("adminUsers.form.role")}
            error={formMessage(t, errors.role?.message)}
            data={roleOptions(t, roleNames.data, user.organization_role)}
          />
          <Checkbox
            {...(self ? { checked: user.membership_active, disabled: true, readOnly: true } : register("isActive"))}
            label={t("adminUsers.form.active")}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("adminUsers.form.cancel")}
            </Button>
            <Button type="submit" loading={update.isPending} disabled={!isDirty}>
              {t("adminUsers.editModal.submit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
