import { Alert, Anchor, Button, Group, PasswordInput, Stack } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router-dom";
import { fitsPasswordBytes, MIN_PASSWORD_LENGTH } from "@/lib/password-rules.ts";
import { completePasswordReset } from "../api/password-reset.ts";
import { resetTokenFrom } from "../utils/reset-token.ts";
import { AuthCard } from "../components/AuthCard.tsx";
import { passwordResetError, type PasswordResetErrorMessage } from "../utils/password-reset-error.ts";

/** The token of the link this page was opened with, read once; the fragment then leaves the address bar and history. */
function useLinkToken(): string | null {
  const [token] = useState(() => {
    const found = resetTokenFrom(window.location.hash);
    if (window.location.hash) window.history.replaceState(window.history.state, "", window.location.pathname);
    return found;
  });
  return token;
}

type FieldKey = "passwordRules.tooShort" | "passwordRules.tooLong" | "auth.reset.mismatch";

/** The browser's check of the new password, with the database's messages (password-rules.ts). */
function checkNewPassword(password: string, confirmation: string): { password?: FieldKey; confirmation?: FieldKey } {
  if (password.length < MIN_PASSWORD_LENGTH) return { password: "passwordRules.tooShort" };
  if (!fitsPasswordBytes(password)) return { password: "passwordRules.tooLong" };
  return password === confirmation ? {} : { confirmation: "auth.reset.mismatch" };
}

/**
 * The page a reset link opens (/reset-password#token=…): a new password, twice, under the
 * password rules; on success the login page says so. A used, expired or unknown link, or a
 * locked account, is told in words, with the way to a new link.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const token = useLinkToken();
  const [password, setPassword] = useState("");
  const [confirmation, setConfirmation] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<PasswordResetErrorMessage>();
  const errors = submitted ? checkNewPassword(password, confirmation) : {};
  const passwordError = errors.password ?? (failure?.field === "password" ? failure.key : undefined);
  const toggleProps = { "aria-label": t("auth.login.togglePasswordVisibility") };

  const requestNew = (
    <Group justify="center" mt="md">
      <Anchor component={Link} to="/forgot-password" size="sm">
        {t("auth.reset.requestNew")}
      </Anchor>
    </Group>
  );
  if (!token) {
    return (
      <AuthCard title={t("auth.reset.resetTitle")} subtitle={t("auth.reset.resetSubtitle")}>
        <Alert color="red">{t("auth.reset.missingToken")}</Alert>
        {requestNew}
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("auth.reset.resetTitle")} subtitle={t("auth.reset.resetSubtitle")}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          setFailure(undefined);
          const check = checkNewPassword(password, confirmation);
          if (check.password || check.confirmation) return;
          setSending(true);
          completePasswordReset(token, password).then(
            () => navigate("/login", { replace: true, state: { passwordReset: true } }),
            (error: unknown) => {
              setSending(false);
              setFailure(passwordResetError(error, "complete"));
            },
          );
        }}
      >
        <Stack>
          {failure && !failure.field && <Alert color="red">{t(failure.key, failure.values ?? {})}</Alert>}
          <PasswordInput
            name="new-password"
            label={t("auth.reset.newPassword")}
            description={t("auth.reset.newHint", { min: MIN_PASSWORD_LENGTH })}
            autoComplete="new-password"
            required
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            error={passwordError ? t(passwordError) : undefined}
            visibilityToggleButtonProps={toggleProps}
          />
          <PasswordInput
            name="confirm-password"
            label={t("auth.reset.confirm")}
            autoComplete="new-password"
            required
            value={confirmation}
            onChange={(event) => setConfirmation(event.currentTarget.value)}
            error={errors.confirmation ? t(errors.confirmation) : undefined}
            visibilityToggleButtonProps={toggleProps}
          />
          <Button type="submit" fullWidth loading={sending}>
            {t("auth.reset.submitReset")}
          </Button>
        </Stack>
      </form>
      {failure?.key === "auth.reset.errors.linkInvalid" ? requestNew : (
        <Group justify="center" mt="md">
          <Anchor component={Link} to="/login" size="sm">
            {t("auth.reset.backToLogin")}
          </Anchor>
        </Group>
      )}
    </AuthCard>
  );
}
