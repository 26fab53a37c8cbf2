import { isAuthApiError, isAuthRetryableFetchError } from "@supabase/supabase-js";

export type SignInErrorKey =
  | "auth.errors.invalidCredentials"
  | "auth.errors.network"
  | "auth.errors.rateLimited"
  | "auth.errors.unknown";

/** Maps a sign-in failure to a translated message key, so raw errors never reach the screen. */
export function signInErrorKey(error: unknown): SignInErrorKey {
  if (isAuthApiError(error)) {
    if (error.code === "invalid_credentials") return "auth.errors.invalidCredentials";
    if (error.status === 429) return "auth.errors.rateLimited";
  }
  if (isAuthRetryableFetchError(error)) return "auth.errors.network";
  return "auth.errors.unknown";
}
