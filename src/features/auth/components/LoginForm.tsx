import { zodResolver } from "@hookform/resolvers/zod";
import { Alert, Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import type { ParseKeys } from "i18next";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { useSignIn } from "../api/sign-in.ts";
import type { SignInResult } from "../api/sign-in-flow.ts";
import { credentialsSchema, type Credentials } from "../api/schemas.ts";
import type { SignOutReason } from "@/session/session-context.ts";
import { signInErrorMessage } from "../utils/sign-in-error.ts";

const endedSessionKeys: Partial<Record<SignOutReason, ParseKeys>> = {
  expired: "auth.sessionEnded.expired",
  unauthorized: "auth.sessionEnded.unauthorized",
  ended: "auth.sessionEnded.ended",
};

interface LoginFormProps {
  /** Why the previous session ended, told until the next attempt. */
  endedReason?: SignOutReason;
  onAttempt(): void;
  onSignedIn(result: SignInResult): void;
}

export function LoginForm({ endedReason, onAttempt, onSignedIn }: LoginFormProps) {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Credentials>({ resolver: zodResolver(credentialsSchema), defaultValues: { email: "", password: "" } });

  // The schema's messages are catalogue keys (see api/schemas.ts).
  const fieldError = (field: keyof Credentials) => formMessage(t, errors[field]?.message);

  const refusal = signIn.isError ? signInErrorMessage(signIn.error) : undefined;
  const endedKey = signIn.isIdle && endedReason ? endedSessionKeys[endedReason] : undefined;

  // noValidate: the schema validates, so messages follow the app's language, not the browser's.
  return (
    <form
      onSubmit={handleSubmit((credentials) => {
        onAttempt();
        signIn.mutate(credentials, { onSuccess: onSignedIn });
      })}
      noValidate
    >
      <Stack>
        {refusal && <Alert color="red">{t(refusal.key, refusal.values ?? {})}</Alert>}
        {endedKey && <Alert color="blue">{t(endedKey)}</Alert>}
        <TextInput
          {...register("email")}
          type="email"
          label={t("auth.login.email")}
          autoComplete="email"
          required
          error={fieldError("email")}
        />
        <PasswordInput
          {...register("password")}
          label={t("auth.login.password")}
          autoComplete="current-password"
          required
          error={fieldError("password")}
          visibilityToggleButtonProps={{ "aria-label": t("auth.login.togglePasswordVisibility") }}
        />
        <Button type="submit" fullWidth loading={signIn.isPending}>
          {t("auth.login.submit")}
        </Button>
      </Stack>
    </form>
  );
}
