import { FunctionsHttpError } from "@supabase/supabase-js";
import { z } from "zod";
import { rpc } from "./call-rpc.ts";
import { readRequestToken, writeRequestToken, type StoredRequestToken } from "./browser-storage.ts";
import { parseRpcResult, RpcError } from "./rpc.ts";
import { supabase } from "./supabase.ts";

/** The header privileged Edge Functions read the request-forgery token from. */
export const requestTokenHeader = "x-csrf-token";

/** A token with less than this left is replaced rather than sent (it could expire in flight). */
export const REQUEST_TOKEN_RENEW_MARGIN_MS = 60_000;

/** The functions' answer to a missing, foreign or expired token. */
export const invalidRequestTokenError = "Invalid request token";

const issuedSchema = z.object({ success: z.literal(true), token: z.string().min(1), expires_at: z.string() });

/** A new token from the database, bound to this Auth session (32 random bytes, valid 1 hour). */
async function issueRequestToken(): Promise<StoredRequestToken> {
  const issued = await rpc("issue_request_token", {}, issuedSchema);
  const token = { token: issued.token, expiresAt: Date.parse(issued.expires_at), enabled: true };
  writeRequestToken(token);
  return token;
}

async function usableToken(): Promise<string> {
  const stored = readRequestToken();
  if (stored?.enabled && stored.expiresAt - Date.now() > REQUEST_TOKEN_RENEW_MARGIN_MS) return stored.token;
  return (await issueRequestToken()).token;
}

async function errorBody(error: unknown): Promise<unknown> {
  if (!(error instanceof FunctionsHttpError)) return undefined;
  try {
    return await (error.context as Response).clone().json();
  } catch {
    return undefined;
  }
}

/**
 * Calls a privileged Edge Function with the request-forgery token (spec section 3) in the
 * `x-csrf-token` header; the function checks it against this session. The token is kept in the
 * browser and renewed when it is near its end; if a function refuses it (say, after the session
 * changed), it is disabled, a new one is issued and the call is made once more. A refusal in
 * the `{success: false, error, code}` shape is thrown as an RpcError.
 */
export async function invokePrivileged<T = unknown>(name: string, body?: Record<string, unknown>): Promise<T> {
  const call = async (token: string) =>
    supabase.functions.invoke<T>(name, { body, headers: { [requestTokenHeader]: token } });

  let result = await call(await usableToken());
  let failure = await errorBody(result.error);
  if ((failure as { error?: unknown } | undefined)?.error === invalidRequestTokenError) {
    const stored = readRequestToken();
    if (stored) writeRequestToken({ ...stored, enabled: false });
    result = await call((await issueRequestToken()).token);
    failure = await errorBody(result.error);
  }
  if (result.error) {
    throw refusal(failure) ?? result.error;
  }
  return result.data as T;
}

/**
 * Calls an Edge Function that needs no session (password-reset: for people who cannot sign
 * in). A refusal in the `{success: false, error, code}` shape is thrown as an RpcError.
 */
export async function invokePublic<T = unknown>(name: string, body: Record<string, unknown>): Promise<T> {
  const result = await supabase.functions.invoke<T>(name, { body });
  if (result.error) throw refusal(await errorBody(result.error)) ?? result.error;
  return result.data as T;
}

/** The function's `{success: false, error, code}` answer as an RpcError, if that is what it is. */
function refusal(body: unknown): RpcError | undefined {
  try {
    parseRpcResult(z.unknown(), body);
  } catch (error) {
    if (error instanceof RpcError) return error;
  }
  return undefined;
}
