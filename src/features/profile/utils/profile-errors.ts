import { isAuthApiError, isAuthRetryableFetchError } from "@supabase/supabase-js";
import { RpcError } from "../../../lib/rpc.ts";

export type PasswordChangeErrorKey =
  | "profile.password.errors.currentWrong"
  | "profile.password.errors.locked"
  | "profile.password.errors.samePassword"
  | "profile.password.errors.weak"
  | "profile.password.errors.network"
  | "profile.password.errors.unknown";

export interface PasswordChangeError {
  /** The field the message belongs under; none for a message about the whole form. */
  field?: "currentPassword" | "newPassword";
  key: PasswordChangeErrorKey;
  values?: { minutes: number };
}

/** Maps a failed password change to a translated message, so raw errors never reach the screen. */
export function passwordChangeError(error: unknown): PasswordChangeError {
  if (error instanceof RpcError) {
    if (error.code === "invalid_credentials") return { field: "currentPassword", key: "profile.password.errors.currentWrong" };
    const minutes = error.details.locked_minutes;
    if (error.code === "account_locked" && typeof minutes === "number") {
      return { key: "profile.password.errors.locked", values: { minutes } };
    }
    return { key: "profile.password.errors.unknown" };
  }
  if (isAuthApiError(error)) {
    if (error.code === "same_password") return { field: "newPassword", key: "profile.password.errors.samePassword" };
    if (error.code === "weak_password") return { field: "newPassword", key: "profile.password.errors.weak" };
  }
  if (isAuthRetryableFetchError(error)) return { key: "profile.password.errors.network" };
  return { key: "profile.password.errors.unknown" };
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
