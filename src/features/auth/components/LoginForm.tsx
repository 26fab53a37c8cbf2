import { Alert, Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import type { ParseKeys } from "i18next";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { useSignIn } from "../api/sign-in.ts";
import { credentialsSchema, type Credentials } from "../api/schemas.ts";
import { signInErrorMessage } from "../utils/sign-in-error.ts";

type FieldErrors = Partial<Record<keyof Credentials, string[]>>;

export function LoginForm() {
  const { t } = useTranslation();
  const signIn = useSignIn();
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

  // The schema's messages are catalogue keys (see api/schemas.ts).
  const fieldError = (field: keyof Credentials) => {
    const key = fieldErrors[field]?.[0];
    return key ? t(key as ParseKeys) : undefined;
  };

  const refusal = signIn.isError ? signInErrorMessage(signIn.error) : undefined;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = credentialsSchema.safeParse({ email: form.get("email"), password: form.get("password") });
    if (!result.success) {
      setFieldErrors(z.flattenError(result.error).fieldErrors);
      return;
    }
    setFieldErrors({});
    signIn.mutate(result.data);
  }

  // noValidate: the schema validates, so messages follow the app's language, not the browser's.
  return (
    <form onSubmit={handleSubmit} noValidate>
      <Stack>
        {refusal && <Alert color="red">{t(refusal.key, refusal.values ?? {})}</Alert>}
        <TextInput
          name="email"
          type="email"
          label={t("auth.login.email")}
          autoComplete="email"
          required
          error={fieldError("email")}
        />
        <PasswordInput
          name="password"
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
