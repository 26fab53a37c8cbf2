import { Alert, Button, PasswordInput, Stack, TextInput } from "@mantine/core";
import type { ParseKeys } from "i18next";
import { useRef, useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { loadAuthClient } from "@/lib/auth-client.ts";
import { useSignIn } from "../api/sign-in.ts";
import type { SignInResult } from "../api/sign-in-flow.ts";
import { checkCredentials, type Credentials } from "../api/credentials.ts";
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
  const { state: signIn, signIn: startSignIn } = useSignIn();
  const [values, setValues] = useState<Credentials>({ email: "", password: "" });
  // The fields are checked on the first submit, and from then on as they change.
  const [submitted, setSubmitted] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const check = checkCredentials(values);
  const errors = submitted && !check.ok ? check.errors : {};
  const fieldError = (field: keyof Credentials) => {
    const key = errors[field];
    return key ? t(key) : undefined;
  };
  const onChange = (field: keyof Credentials) => (event: ChangeEvent<HTMLInputElement>) => {
    const { value } = event.currentTarget;
    setValues((current) => ({ ...current, [field]: value }));
  };

  const refusal = signIn.status === "error" ? signInErrorMessage(signIn.error) : undefined;
  const endedKey = signIn.status === "idle" && endedReason ? endedSessionKeys[endedReason] : undefined;

  // noValidate: the form checks the fields itself, so messages follow the app's language, not the browser's.
  // Auth loads while the form is being filled in (typed, autofilled or clicked), not with the page.
  const prepareAuth = () => void loadAuthClient().catch(() => undefined);
  return (
    <form
      onInput={prepareAuth}
      onPointerDown={prepareAuth}
      onSubmit={(event) => {
        event.preventDefault();
        setSubmitted(true);
        if (!check.ok) {
          // The first field in error gets the focus, where its message is read out.
          (check.errors.email ? emailRef : passwordRef).current?.focus();
          return;
        }
        onAttempt();
        startSignIn(check.credentials, { onSuccess: onSignedIn });
      }}
      noValidate
    >
      <Stack>
        {refusal && <Alert color="red">{t(refusal.key, refusal.values ?? {})}</Alert>}
        {endedKey && <Alert color="blue">{t(endedKey)}</Alert>}
        <TextInput
          ref={emailRef}
          name="email"
          value={values.email}
          onChange={onChange("email")}
          type="email"
          label={t("auth.login.email")}
          autoComplete="email"
          required
          error={fieldError("email")}
        />
        <PasswordInput
          ref={passwordRef}
          name="password"
          value={values.password}
          onChange={onChange("password")}
          label={t("auth.login.password")}
          autoComplete="current-password"
          required
          error={fieldError("password")}
          visibilityToggleButtonProps={{ "aria-label": t("auth.login.togglePasswordVisibility") }}
        />
        <Button type="submit" fullWidth loading={signIn.status === "pending"}>
          {t("auth.login.submit")}
        </Button>
      </Stack>
    </form>
  );
}
