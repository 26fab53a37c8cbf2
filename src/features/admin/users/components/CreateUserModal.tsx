import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Group, Modal, NativeSelect, PasswordInput, SimpleGrid, Stack, TextInput } from "@mantine/core";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { roleOptions, useRoleNames } from "@/components/roles/role-names.ts";
import { useUserAction } from "../api/mutations.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { userAdminError } from "../utils/user-errors.ts";
import {
  createUserRequest,
  createUserSchema,
  emptyCreateValues,
  type CreateUserValues,
} from "../utils/user-forms.ts";
import { formMessage } from "@/i18n/form-message.ts";

interface Props {
  scope: OrganizationScope;
  onClose(): void;
}

/** Creates a member of the session's organization (spec section 5). */
export function CreateUserModal({ scope, onClose }: Props) {
  const { t } = useTranslation();
  const roleNames = useRoleNames();
  const create = useUserAction(scope);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<CreateUserValues>({ resolver: zodResolver(createUserSchema), defaultValues: emptyCreateValues });

  const failure = create.isError ? userAdminError(create.error) : undefined;
  const onSubmit = handleSubmit((values) => {
    const request = createUserRequest(values);
    create.mutate(
      // The session's organization; unknown (not loaded yet) it is sent as none and refused.
      { action: "create", organization_id: scope.organizationId === "none" ? null : scope.organizationId, ...request },
      {
        onSuccess: () => {
          notifySuccess(t("adminUsers.notifications.created", { email: request.email }));
          onClose();
        },
        onError: (error) => {
          const { field, key } = userAdminError(error);
          if (field) setError(field, { type: "server", message: key }, { shouldFocus: true });
        },
      },
    );
  });

  return (
    <Modal opened onClose={onClose} title={t("adminUsers.createModal.title")} closeButtonProps={{ "aria-label": t("adminUsers.form.close") }} size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {failure && !failure.field && <Alert color="red">{t(failure.key)}</Alert>}
          <TextInput
            {...register("email")}
            type="email"
            label={t("adminUsers.form.email")}
            autoComplete="off"
            required
            error={formMessage(t, errors.email?.message)}
            data-autofocus
          />
          <PasswordInput
            {...register("password")}
            label={t("adminUsers.form.password")}
            description={t("adminUsers.form.passwordHint")}
            autoComplete="new-password"
            required
            error={formMessage(t, errors.password?.message)}
            visibilityToggleButtonProps={{ "aria-label": t("adminUsers.form.togglePassword") }}
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
          <NativeSelect
            {...register("role")}
            label={t("adminUsers.form.role")}
            required
            error={formMessage(t, errors.role?.message)}
            data={roleOptions(t, roleNames.data)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("adminUsers.form.cancel")}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t("adminUsers.createModal.submit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
