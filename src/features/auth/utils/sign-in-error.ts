// The error checks alone (not the package's index, which would bring all of Auth to the login page).
import { isAuthApiError, isAuthRetryableFetchError } from "@supabase/auth-js/dist/module/lib/errors.js";
import { RpcError } from "@/lib/rpc.ts";
import { isThrottled, SignInError, type SignInFailure } from "../api/sign-in-flow.ts";

export type SignInErrorKey =
  | "auth.errors.invalidCredentials"
  | "auth.errors.accountLocked"
  | "auth.errors.adminLocked"
  | "auth.errors.noOrganization"
  | "auth.errors.accountDisabled"
  | "auth.errors.authUserCreationFailed"
  | "auth.errors.authUserCreationError"
  | "auth.errors.passwordSyncFailed"
  | "auth.errors.sessionCreationFailed"
  | "auth.errors.loginError"
  | "auth.errors.timeout"
  | "auth.errors.authenticationRequired"
  | "auth.errors.organizationRequired"
  | "auth.errors.userNotFound"
  | "auth.errors.network"
  | "auth.errors.tooManyAttempts"
  | "auth.errors.rateLimited"
  | "auth.errors.unknown"
  | "organizations.errors.switchDisabled";

export interface SignInErrorMessage {
  key: SignInErrorKey;
  values?: { count: number } | { email: string };
}

/**
 * Whole minutes to wait: the throttle's retry_after_seconds, or the minutes a 429 answer's
 * text names (the local stack words it like the throttle); undefined when unknown.
 */
function minutesToWait(error: unknown): number | undefined {
  if (error instanceof RpcError) {
    const seconds = error.details.retry_after_seconds;
    return typeof seconds === "number" && seconds > 0 ? Math.ceil(seconds / 60) : undefined;
  }
  const minutes = error instanceof Error ? /\b(\d+) minutes?\b/.exec(error.message)?.[1] : undefined;
  return minutes ? Number(minutes) : undefined;
}

/** The database's refusal codes (the RPCs' `code`) and the message each one gets. */
const refusalKeys: Record<string, SignInErrorKey> = {
  invalid_credentials: "auth.errors.invalidCredentials",
  admin_locked: "auth.errors.adminLocked",
  account_disabled: "auth.errors.accountDisabled",
  auth_user_creation_failed: "auth.errors.authUserCreationFailed",
  auth_user_creation_error: "auth.errors.authUserCreationError",
  password_sync_failed: "auth.errors.passwordSyncFailed",
  authentication_required: "auth.errors.authenticationRequired",
  organization_not_available: "auth.errors.organizationRequired",
  organization_switch_disabled: "organizations.errors.switchDisabled",
  user_not_found: "auth.errors.userNotFound",
};

const flowKeys: Record<SignInFailure, SignInErrorKey> = {
  timeout: "auth.errors.timeout",
  session_creation_failed: "auth.errors.sessionCreationFailed",
  login_error: "auth.errors.loginError",
  network: "auth.errors.network",
};

/**
 * Maps a failure of the sign-in or the organization binding to a translated message (the
 * spec's catalogue, section 8), so raw errors never reach the screen.
 */
export function signInErrorMessage(error: unknown): SignInErrorMessage {
  if (isThrottled(error)) {
    const minutes = minutesToWait(error);
    return minutes ? { key: "auth.errors.tooManyAttempts", values: { count: minutes } } : { key: "auth.errors.rateLimited" };
  }
  if (error instanceof RpcError) {
    if (error.code === "account_locked") {
      const minutes = error.details.locked_minutes;
      return typeof minutes === "number"
        ? { key: "auth.errors.accountLocked", values: { count: minutes } }
        : { key: "auth.errors.unknown" };
    }
    if (error.code === "no_organization") {
      const email = /for (\S+@\S+)$/.exec(error.message)?.[1];
      return email ? { key: "auth.errors.noOrganization", values: { email } } : { key: "auth.errors.userNotFound" };
    }
    return { key: refusalKeys[error.code ?? ""] ?? "auth.errors.unknown" };
  }
  if (error instanceof SignInError) return { key: flowKeys[error.code] };
  if (isAuthApiError(error)) {
    if (error.code === "invalid_credentials") return { key: "auth.errors.invalidCredentials" };
    return { key: "auth.errors.loginError" };
  }
  if (isAuthRetryableFetchError(error)) return { key: "auth.errors.network" };
  return { key: "auth.errors.unknown" };
}
