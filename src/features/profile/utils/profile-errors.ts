import { passwordRefusalKey, type PasswordRuleKey } from "@/lib/password-rules.ts";
import { isLostConnection, RpcError } from "@/lib/rpc.ts";

export type PasswordChangeErrorKey =
  | "profile.password.errors.currentWrong"
  | "profile.password.errors.locked"
  | "profile.password.errors.network"
  | "profile.password.errors.unknown"
  | PasswordRuleKey;

export interface PasswordChangeError {
  /** The field the message belongs under; none for a message about the whole form. */
  field?: "currentPassword" | "newPassword";
  key: PasswordChangeErrorKey;
  values?: { minutes: number };
}

/**
 * Maps a failed password change (`change_my_password`'s codes) to a translated message under
 * the field it concerns, so raw errors never reach the screen.
 */
export function passwordChangeError(error: unknown): PasswordChangeError {
  const newPasswordKey = passwordRefusalKey(error);
  if (newPasswordKey) return { field: "newPassword", key: newPasswordKey };
  if (error instanceof RpcError) {
    if (error.code === "invalid_credentials") return { field: "currentPassword", key: "profile.password.errors.currentWrong" };
    const minutes = error.details.locked_minutes;
    if (error.code === "account_locked" && typeof minutes === "number") {
      return { key: "profile.password.errors.locked", values: { minutes } };
    }
    return { key: "profile.password.errors.unknown" };
  }
  return { key: isLostConnection(error) ? "profile.password.errors.network" : "profile.password.errors.unknown" };
}

export type ProfileNameErrorKey =
  | "profile.name.errors.firstNameRequired"
  | "profile.name.errors.tooLong"
  | "profile.name.errors.unknown";

/** Maps a refused name change (`update_my_profile`'s codes) to a translated message. */
export function profileNameError(error: unknown): ProfileNameErrorKey {
  if (error instanceof RpcError) {
    if (error.code === "first_name_required") return "profile.name.errors.firstNameRequired";
    if (error.code === "name_too_long") return "profile.name.errors.tooLong";
  }
  return "profile.name.errors.unknown";
}
