import { z } from "zod";

/** A call the database refused, with its error text from the spec's catalogue (e.g. 'User not found'). */
export class RpcError extends Error {
  override name = "RpcError";
}

// RPCs answer a refused call with `{ success: false, error }` (spec §7) instead of failing it.
const rpcFailureSchema = z.object({ success: z.literal(false), error: z.string().min(1) });

/** Checks an RPC's JSON payload: throws RpcError for a refusal, ZodError for an unexpected shape. */
export function parseRpcResult<T extends z.ZodType>(schema: T, data: unknown): z.output<T> {
  const failure = rpcFailureSchema.safeParse(data);
  if (failure.success) throw new RpcError(failure.data.error);
  return schema.parse(data);
}
