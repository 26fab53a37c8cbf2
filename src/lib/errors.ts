import { FunctionsFetchError, FunctionsRelayError } from "@supabase/supabase-js";
import { RpcError } from "./rpc.ts";

/** Whether a call failed because the server could not be reached (an RPC or an Edge Function). */
export function isLostConnection(error: unknown): boolean {
  if (error instanceof FunctionsFetchError || error instanceof FunctionsRelayError) return true;
  // supabase.rpc answers a failed fetch with an error object whose message names the TypeError.
  const message = typeof error === "object" && error !== null && "message" in error ? String(error.message) : "";
  return /failed to fetch|networkerror|fetch failed|load failed/i.test(message);
}

/** What a screen shows when the server could not be reached, and for any other failure. */
export interface FailureFallbacks<T> {
  network: T;
  unknown: T;
}

/**
 * The app's one error mapper: what a screen shows for a failed call. A refusal whose code the
 * screen knows gets its entry of `byCode`; a lost connection gets `network`; anything else
 * (an unknown code, an unexpected answer) `unknown`, so no raw error text reaches the screen.
 */
export function mapFailure<T>(
  error: unknown,
  byCode: Readonly<Partial<Record<string, T>>>,
  fallbacks: FailureFallbacks<NoInfer<T>>,
): T {
  if (error instanceof RpcError) {
    const known = error.code !== undefined && Object.hasOwn(byCode, error.code) ? byCode[error.code] : undefined;
    return known ?? fallbacks.unknown;
  }
  return isLostConnection(error) ? fallbacks.network : fallbacks.unknown;
}

/**
 * mapFailure for catalogues that name their messages after the codes: `<prefix>.<code>` for
 * a known refusal code, `<prefix>.network` or `<prefix>.unknown` otherwise.
 */
export function failureKey<Prefix extends string, Code extends string>(
  error: unknown,
  prefix: Prefix,
  codes: readonly Code[],
): `${Prefix}.${Code | "network" | "unknown"}` {
  type Key = `${Prefix}.${Code | "network" | "unknown"}`;
  const byCode = Object.fromEntries(codes.map((code): [string, Key] => [code, `${prefix}.${code}`]));
  return mapFailure<Key>(error, byCode, { network: `${prefix}.network`, unknown: `${prefix}.unknown` });
}
