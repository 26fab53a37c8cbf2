import type { z } from "zod";

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

/**
 * RPCs answer a refused call with `{ success: false, error, code }` (spec §7) instead of failing
 * it: throws that refusal as RpcError (its other fields as details). Checked by hand, so the
 * login's calls (the first screen) need no schema library.
 */
export function throwIfRefused(data: unknown): void {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return;
  const { success, error, code, ...details } = data as Record<string, unknown>;
  if (success !== false || typeof error !== "string" || error.length === 0) return;
  if (code !== undefined && typeof code !== "string") return;
  throw new RpcError(error, code, { success, ...details });
}

/** Checks an RPC's JSON payload: throws RpcError for a refusal, ZodError for an unexpected shape. */
export function parseRpcResult<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  throwIfRefused(data);
  return schema.parse(data);
}
