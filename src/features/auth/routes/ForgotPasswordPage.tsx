import { Alert, Anchor, Button, Group, Stack, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router-dom";
import { languages, type Language } from "@/i18n/index.ts";
import { requestPasswordReset } from "../api/password-reset.ts";
import { checkCredentials } from "../api/credentials.ts";
import { AuthCard } from "../components/AuthCard.tsx";
import { passwordResetError, type PasswordResetErrorMessage } from "../utils/password-reset-error.ts";

type Status = { step: "idle" | "sending" | "sent" } | { step: "failed"; message: PasswordResetErrorMessage };

/**
 * "Şifremi unuttum": asks for a reset link for an e-mail address. The answer is the same
 * whether or not the address has an account, so the page only ever says a link went out if
 * it is registered.
 */
export function ForgotPasswordPage() {
  const { t, i18n } = useTranslation();
  const [email, setEmail] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const [status, setStatus] = useState<Status>({ step: "idle" });
  // The login form's own address check (its password rule does not apply here).
  const emailError = submitted ? checkCredentials({ email, password: "-" }) : undefined;
  const fieldError = emailError && !emailError.ok ? emailError.errors.email : undefined;
  const language: Language = languages.find((each) => each === i18n.resolvedLanguage) ?? "tr";

  return (
    <AuthCard title={t("auth.reset.forgotTitle")} subtitle={t("auth.reset.forgotSubtitle")}>
      {status.step === "sent" ? (
        <Alert color="green">{t("auth.reset.sent")}</Alert>
      ) : (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setSubmitted(true);
            const check = checkCredentials({ email, password: "-" });
            if (!check.ok) return;
            setStatus({ step: "sending" });
            requestPasswordReset(check.credentials.email, language).then(
              () => setStatus({ step: "sent" }),
              (error: unknown) => setStatus({ step: "failed", message: passwordResetError(error, "request") }),
            );
          }}
        >
          <Stack>
            {status.step === "failed" && <Alert color="red">{t(status.message.key, status.message.values ?? {})}</Alert>}
            <TextInput
              name="email"
              type="email"
              label={t("auth.login.email")}
              autoComplete="email"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={fieldError ? t(fieldError) : undefined}
            />
            <Button type="submit" fullWidth loading={status.step === "sending"}>
              {t("auth.reset.submitRequest")}
            </Button>
          </Stack>
        </form>
      )}
      <Group justify="center" mt="md">
        <Anchor component={Link} to="/login" size="sm">
          {t("auth.reset.backToLogin")}
        </Anchor>
      </Group>
    </AuthCard>
  );
}
