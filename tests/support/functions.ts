/** Calls an Edge Function the way the app does, returning its HTTP status and JSON body. */
import { FunctionsHttpError } from "@supabase/supabase-js";
import { rpc, type CrmClient, type RpcAnswer } from "./clients.ts";

/** A request-forgery token of this client's session (what the app keeps in the browser). */
export async function requestToken(client: CrmClient): Promise<string> {
  const issued = await rpc(client, "issue_request_token");
  return issued.token as string;
}

export async function invokeFunction(
  client: CrmClient,
  name: string,
  body: unknown,
  token?: string,
): Promise<{ status: number; body: RpcAnswer }> {
  const { data, error, response } = await client.functions.invoke(name, {
    body: body as Record<string, unknown>,
    headers: token ? { "x-csrf-token": token } : {},
  });
  if (error instanceof FunctionsHttpError) {
    return { status: error.context.status, body: (await error.context.json()) as RpcAnswer };
  }
  if (error) throw error;
  return { status: response?.status ?? 200, body: data as RpcAnswer };
}
