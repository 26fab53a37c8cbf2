import { isLostConnection } from "@/lib/errors.ts";
import { passwordRefusalKey, type PasswordRuleKey } from "@/lib/password-rules.ts";
import { RpcError } from "@/lib/rpc.ts";
import { signInErrorMessage, type SignInErrorMessage } from "./sign-in-error.ts";

export type PasswordResetErrorKey =
  | "auth.reset.errors.linkInvalid"
  | "auth.reset.errors.unavailable"
  | "auth.reset.errors.tooManyRequests"
  | "auth.validation.emailInvalid"
  | PasswordRuleKey
  | SignInErrorMessage["key"];

export interface PasswordResetErrorMessage {
  /** The field the message belongs under (the new password); none for the whole form. */
  field?: "password";
  key: PasswordResetErrorKey;
  values?: SignInErrorMessage["values"];
}

/**
 * Maps a refused reset request or completion (the password-reset function's codes) to a
 * translated message: the link's and the function's own codes, the password rules under the
 * field, and the sign-in's (a lock, the address's throttle, a disabled account) as the
 * login form words them; never a raw error.
 */
export function passwordResetError(error: unknown, step: "request" | "complete"): PasswordResetErrorMessage {
  const rule = passwordRefusalKey(error);
  if (rule) return { field: "password", key: rule };
  if (error instanceof RpcError) {
    if (error.code === "reset_link_invalid") return { key: "auth.reset.errors.linkInvalid" };
    if (error.code === "password_reset_unavailable") return { key: "auth.reset.errors.unavailable" };
    if (error.code === "invalid_fields") return { key: "auth.validation.emailInvalid" };
    const seconds = error.details.retry_after_seconds;
    if (step === "request" && error.code === "too_many_attempts" && typeof seconds === "number") {
      return { key: "auth.reset.errors.tooManyRequests", values: { count: Math.max(1, Math.ceil(seconds / 60)) } };
    }
    return signInErrorMessage(error);
  }
  return { key: isLostConnection(error) ? "auth.errors.network" : "auth.errors.unknown" };
}
