import { RpcError } from "./rpc.ts";

/**
 * The database's rules for a new password (sign-up by an admin, reset, own change), checked
 * first in the browser with the same messages. Messages are catalogue keys, translated when shown.
 */
export const MIN_PASSWORD_LENGTH = 6;
/** bcrypt reads at most 72 bytes; the database refuses longer passwords. */
export const MAX_PASSWORD_BYTES = 72;

export type PasswordRuleKey =
  | "passwordRules.tooShort"
  | "passwordRules.tooLong"
  | "passwordRules.common"
  | "passwordRules.same";

/** Whether the password fits in bcrypt's 72 bytes (UTF-8: ş, ü, İ… take two each). */
export function fitsPasswordBytes(password: string): boolean {
  return new TextEncoder().encode(password).length <= MAX_PASSWORD_BYTES;
}

// The refusal codes of create_user_secure, simple_reset_password and change_my_password.
const refusalKeys = new Map<string | undefined, PasswordRuleKey>([
  ["password_too_short", "passwordRules.tooShort"],
  ["password_too_long", "passwordRules.tooLong"],
  ["password_common", "passwordRules.common"],
  ["password_same", "passwordRules.same"],
]);

/** The message for the database's refusal of a new password, or undefined for any other error. */
export function passwordRefusalKey(error: unknown): PasswordRuleKey | undefined {
  return error instanceof RpcError ? refusalKeys.get(error.code) : undefined;
}
