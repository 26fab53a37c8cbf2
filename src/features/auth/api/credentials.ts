/**
 * The login form's check, by hand: the first screen carries no schema library. Messages are
 * catalogue keys; the form translates them when it shows them.
 */
export interface Credentials {
  email: string;
  password: string;
}

export type CredentialsMessageKey = "auth.validation.emailRequired" | "auth.validation.emailInvalid" | "auth.validation.passwordRequired";

export type CredentialsErrors = Partial<Record<keyof Credentials, CredentialsMessageKey>>;

// The address rule zod's z.email() applies (the one the form used before).
const emailPattern = /^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/** The credentials to send (the email trimmed, the password as typed), or each field's message. */
export function checkCredentials(input: Credentials): { ok: true; credentials: Credentials } | { ok: false; errors: CredentialsErrors } {
  const email = input.email.trim();
  const errors: CredentialsErrors = {};
  if (!email) errors.email = "auth.validation.emailRequired";
  else if (!emailPattern.test(email)) errors.email = "auth.validation.emailInvalid";
  if (!input.password) errors.password = "auth.validation.passwordRequired";
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, credentials: { email, password: input.password } };
}
