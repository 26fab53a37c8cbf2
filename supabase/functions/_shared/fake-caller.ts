/** A stand-in for the caller's Supabase client in function unit tests: only what handlers use. */
import { AuthRetryableFetchError, type SupabaseClient } from "@supabase/supabase-js";

export interface FakeCallerOptions {
  /** The user Auth finds for the bearer token (null: Auth refuses it; "unavailable": Auth answers 503). */
  user?: { id: string } | null | "unavailable";
  /** What verify_request_token answers. */
  tokenValid?: boolean;
  /** What every other RPC answers. */
  answer?: { data: unknown; error: unknown };
  /** What a given RPC answers (before `answer`). */
  answers?: Record<string, { data: unknown; error: unknown }>;
}

export interface RecordedCall {
  name: string;
  args: Record<string, unknown>;
}

export function fakeCaller(options: FakeCallerOptions = {}) {
  const calls: RecordedCall[] = [];
  /** The extra headers each caller client was built with (sent with every request). */
  const clientHeaders: Record<string, string>[] = [];
  const factory = (_authorization: string, headers: Record<string, string> = {}) => {
    clientHeaders.push(headers);
    return {
      auth: {
        getUser: () =>
          Promise.resolve(
            options.user === null
              ? { data: { user: null }, error: { message: "invalid JWT" } }
              : options.user === "unavailable"
                ? { data: { user: null }, error: new AuthRetryableFetchError("The service is not available; try again shortly", 503) }
                : { data: { user: options.user ?? { id: "0b000000-0000-4000-8000-000000000002" } }, error: null },
          ),
      },
      rpc: (name: string, args: Record<string, unknown>) => {
        calls.push({ name, args });
        if (name === "verify_request_token") return Promise.resolve({ data: options.tokenValid ?? true, error: null });
        return Promise.resolve(options.answers?.[name] ?? options.answer ?? { data: { success: true }, error: null });
      },
    } as unknown as SupabaseClient;
  };
  return { factory, calls, clientHeaders };
}

/** A privileged request as the app sends it. */
export function privilegedRequest(path: string, body: unknown, headers: Record<string, string> = {}): Request {
  return new Request(`http://localhost/${path}`, {
    method: "POST",
    headers: { Authorization: "Bearer user-jwt", "x-csrf-token": "token-of-this-session", "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}
