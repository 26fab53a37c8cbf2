import { Alert, Button, Group, PasswordInput, Stack } from "@mantine/core";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { notifySuccess } from "@/components/notify.ts";
import { fitsPasswordBytes, MIN_PASSWORD_LENGTH } from "@/lib/password-rules.ts";
import { useChangePassword } from "../api/change-password.ts";
import { passwordChangeError } from "../utils/profile-errors.ts";

interface Values {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

interface Props {
  userId: string;
  email: string;
}

const emptyValues: Values = { currentPassword: "", newPassword: "", confirmPassword: "" };

/** Changes the signed-in user's password; the database checks the current one. */
export function ChangePasswordForm({ userId, email }: Props) {
  const { t } = useTranslation();
  const change = useChangePassword(userId);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<Values>({ defaultValues: emptyValues });

  // Validation messages are catalogue keys, translated when shown (so they follow the language).
  const failure = change.isError ? passwordChangeError(change.error) : undefined;
  const toggleProps = { "aria-label": t("auth.login.togglePasswordVisibility") };

  const onSubmit = handleSubmit(({ currentPassword, newPassword }) => {
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          reset(emptyValues);
          notifySuccess(t("profile.password.changed"));
        },
        onError: (error) => {
          const { field, key } = passwordChangeError(error);
          if (field) setError(field, { type: "server", message: key }, { shouldFocus: true });
        },
      },
    );
  });

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {failure && !failure.field && <Alert color="red">{t(failure.key, failure.values ?? {})}</Alert>}
        {/* Lets password managers file the new password under the right account. */}
        <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordInput
          label={t("profile.password.current")}
          autoComplete="current-password"
          required
          error={formMessage(t, errors.currentPassword?.message)}
          visibilityToggleButtonProps={toggleProps}
          {...register("currentPassword", { required: "profile.password.errors.currentRequired" })}
        />
        <PasswordInput
          label={t("profile.password.new")}
          description={t("profile.password.newHint", { min: MIN_PASSWORD_LENGTH })}
          autoComplete="new-password"
          required
          error={formMessage(t, errors.newPassword?.message)}
          visibilityToggleButtonProps={toggleProps}
          {...register("newPassword", {
            required: "passwordRules.tooShort",
            minLength: { value: MIN_PASSWORD_LENGTH, message: "passwordRules.tooShort" },
            validate: {
              fits: (value) => fitsPasswordBytes(value) || "passwordRules.tooLong",
              differs: (value, values) => value !== values.currentPassword || "passwordRules.same",
            },
          })}
        />
        <PasswordInput
          label={t("profile.password.confirm")}
          autoComplete="new-password"
          required
          error={formMessage(t, errors.confirmPassword?.message)}
          visibilityToggleButtonProps={toggleProps}
          {...register("confirmPassword", {
            validate: (value, values) => value === values.newPassword || "profile.password.errors.mismatch",
          })}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={change.isPending}>
            {t("profile.password.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
