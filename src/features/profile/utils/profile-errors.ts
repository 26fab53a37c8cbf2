import { passwordRefusalKey, type PasswordRuleKey } from "@/lib/password-rules.ts";
import { mapFailure } from "@/lib/errors.ts";
import { RpcError } from "@/lib/rpc.ts";

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
  const minutes = error instanceof RpcError && error.code === "account_locked" ? error.details.locked_minutes : undefined;
  if (typeof minutes === "number") return { key: "profile.password.errors.locked", values: { minutes } };
  return mapFailure<PasswordChangeError>(
    error,
    { invalid_credentials: { field: "currentPassword", key: "profile.password.errors.currentWrong" } },
    { network: { key: "profile.password.errors.network" }, unknown: { key: "profile.password.errors.unknown" } },
  );
}

export type ProfileNameErrorKey =
  | "profile.name.errors.firstNameRequired"
  | "profile.name.errors.tooLong"
  | "profile.name.errors.invalidPhone"
  | "profile.name.errors.unknown";

/** Maps a refused name or phone change (`update_my_profile`'s codes) to a translated message. */
export function profileNameError(error: unknown): ProfileNameErrorKey {
  return mapFailure<ProfileNameErrorKey>(
    error,
    {
      first_name_required: "profile.name.errors.firstNameRequired",
      name_too_long: "profile.name.errors.tooLong",
      invalid_phone: "profile.name.errors.invalidPhone",
    },
    { network: "profile.name.errors.unknown", unknown: "profile.name.errors.unknown" },
  );
}
