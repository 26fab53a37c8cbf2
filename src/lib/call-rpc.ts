import type { z } from "zod";
import type { Database } from "@/types/database.types.ts";
import { parseRpcResult } from "./rpc.ts";
import { supabase } from "./supabase.ts";

type Functions = Database["public"]["Functions"];

/** A public RPC, as the generated database types name it. */
export type RpcName = keyof Functions & string;

/** An RPC's arguments, as the generated types spell them (`{}` for none). */
export type RpcArgs<Name extends RpcName> = Functions[Name]["Args"];

/**
 * Calls a public RPC and checks its JSON answer. A failed request (no connection, an HTTP
 * error) is thrown as supabase-js reports it; a refusal in the `{success: false, error, code}`
 * envelope as RpcError; an answer of another shape than `schema` as ZodError.
 */
export async function rpc<Name extends RpcName, Schema extends z.ZodType>(
  name: Name,
  args: RpcArgs<Name>,
  schema: Schema,
): Promise<z.output<Schema>> {
  const { data, error } = await supabase.rpc(name, args);
  if (error) throw error;
  return parseRpcResult(schema, data);
}
