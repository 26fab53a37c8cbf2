import { FunctionsFetchError, FunctionsRelayError } from "@supabase/supabase-js";
import { z } from "zod";

/**
 * A call the database refused: its error text from the spec's catalogue (e.g. 'User not
 * found'), the machine code the app translates, and any detail such as locked_minutes.
 */
export class RpcError extends Error {
  override name = "RpcError";
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

// RPCs answer a refused call with `{ success: false, error, code }` (spec §7) instead of failing it.
const rpcFailureSchema = z.looseObject({
  success: z.literal(false),
  error: z.string().min(1),
  code: z.string().optional(),
});

/** Checks an RPC's JSON payload: throws RpcError for a refusal, ZodError for an unexpected shape. */
export function parseRpcResult<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  const failure = rpcFailureSchema.safeParse(data);
  if (failure.success) {
    const { error, code, ...details } = failure.data;
    throw new RpcError(error, code, details);
  }
  return schema.parse(data);
}

/** Whether a call failed because the server could not be reached (an RPC or an Edge Function). */
export function isLostConnection(error: unknown): boolean {
  if (error instanceof FunctionsFetchError || error instanceof FunctionsRelayError) return true;
  // supabase.rpc answers a failed fetch with an error object whose message names the TypeError.
  const message = typeof error === "object" && error !== null && "message" in error ? String(error.message) : "";
  return /failed to fetch|networkerror|fetch failed|load failed/i.test(message);
}
