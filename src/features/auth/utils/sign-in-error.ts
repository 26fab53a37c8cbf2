import { isAuthApiError, isAuthRetryableFetchError } from "@supabase/supabase-js";
import { RpcError } from "../../../lib/rpc.ts";

export type SignInErrorKey =
  | "auth.errors.invalidCredentials"
  | "auth.errors.accountLocked"
  | "auth.errors.adminLocked"
  | "auth.errors.noOrganization"
  | "auth.errors.accountDisabled"
  | "auth.errors.network"
  | "auth.errors.rateLimited"
  | "auth.errors.unknown";

export interface SignInErrorMessage {
  key: SignInErrorKey;
  values?: { minutes: number };
}

const refusalKeys: Record<string, SignInErrorKey> = {
  invalid_credentials: "auth.errors.invalidCredentials",
  admin_locked: "auth.errors.adminLocked",
  no_organization: "auth.errors.noOrganization",
  account_disabled: "auth.errors.accountDisabled",
};

/** Maps a sign-in failure to a translated message, so raw errors never reach the screen. */
export function signInErrorMessage(error: unknown): SignInErrorMessage {
  if (error instanceof RpcError) {
    const minutes = error.details.locked_minutes;
    if (error.code === "account_locked" && typeof minutes === "number") {
      return { key: "auth.errors.accountLocked", values: { minutes } };
    }
    return { key: refusalKeys[error.code ?? ""] ?? "auth.errors.unknown" };
  }
  if (isAuthApiError(error)) {
    if (error.code === "invalid_credentials") return { key: "auth.errors.invalidCredentials" };
    if (error.status === 429) return { key: "auth.errors.rateLimited" };
  }
  if (isAuthRetryableFetchError(error)) return { key: "auth.errors.network" };
  return { key: "auth.errors.unknown" };
}
