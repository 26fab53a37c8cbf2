import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, Group, Modal, PasswordInput, Stack, Text } from "@mantine/core";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { notifySuccess } from "@/components/notify.ts";
import { displayName } from "@/lib/display-name.ts";
import { useUserAction } from "../api/mutations.ts";
import type { OrganizationUser } from "../api/schemas.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { userAdminError } from "../utils/user-errors.ts";
import { resetPasswordSchema, type ResetPasswordValues } from "../utils/user-forms.ts";
import { formMessage } from "@/i18n/form-message.ts";

interface Props {
  scope: OrganizationScope;
  user: OrganizationUser;
  onClose(): void;
}

/** Sets a new password for a member. */
export function ResetPasswordModal({ scope, user, onClose }: Props) {
  const { t } = useTranslation();
  const reset = useUserAction(scope);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetPasswordValues>({ resolver: zodResolver(resetPasswordSchema), defaultValues: { password: "" } });

  const failure = reset.isError ? userAdminError(reset.error) : undefined;
  const onSubmit = handleSubmit(({ password }) => {
    reset.mutate(
      { action: "reset_password", user_id: user.id, new_password: password },
      {
        onSuccess: () => {
          notifySuccess(t("adminUsers.notifications.passwordReset"));
          onClose();
        },
        onError: (error) => {
          const { field, key } = userAdminError(error);
          if (field === "password") setError("password", { type: "server", message: key }, { shouldFocus: true });
        },
      },
    );
  });

  return (
    <Modal opened onClose={onClose} title={t("adminUsers.resetModal.title")} closeButtonProps={{ "aria-label": t("adminUsers.form.close") }}>
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Text size="sm">{t("adminUsers.resetModal.description", { name: displayName(user) })}</Text>
          {failure && failure.field !== "password" && <Alert color="red">{t(failure.key)}</Alert>}
          {/* Lets password managers file the password under the right account. */}
          <input type="text" name="username" autoComplete="username" value={user.email} readOnly hidden />
          <PasswordInput
            {...register("password")}
            label={t("adminUsers.resetModal.newPassword")}
            description={t("adminUsers.form.passwordHint")}
            autoComplete="new-password"
            required
            error={formMessage(t, errors.password?.message)}
            visibilityToggleButtonProps={{ "aria-label": t("adminUsers.form.togglePassword") }}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("adminUsers.form.cancel")}
            </Button>
            <Button type="submit" loading={reset.isPending}>
              {t("adminUsers.resetModal.submit")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
