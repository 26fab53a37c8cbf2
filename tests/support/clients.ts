/**
 * supabase-js clients for tests, the way the app builds them (Node 20 needs `ws`), with the
 * tests' publishable key: the stacks tests and tools start run on the test keys (keys.ts).
 */
import { createClient, type SupabaseClient } from "@supabase/supabase-js";
import ws from "ws";
import type { Database } from "../../src/types/database.types.ts";
import { testKeys } from "./keys.ts";

export const demoPassword = "Demo.1234";
export const demoOrganizationId = "0a000000-0000-4000-8000-000000000001";
export const acmeOrganizationId = "0a000000-0000-4000-8000-000000000002";

export type CrmClient = SupabaseClient<Database>;

/** A JSON answer of our RPCs ({success, error?, code?, ...}). */
export type RpcAnswer = { success: boolean; error?: string; code?: string } & Record<string, unknown>;

export function anonClient(url: string): CrmClient {
  return createClient<Database>(url, testKeys.publishableKey, {
    auth: { persistSession: false, autoRefreshToken: false },
    realtime: { transport: ws as never },
  });
}

/**
 * Signs in with Auth and, like the app, binds the new session to an organization (the
 * one given, or the first available); `organization: false` leaves the session unbound.
 */
export async function signedInClient(
  url: string,
  email: string,
  password = demoPassword,
  options: { organization?: string | false } = {},
) {
  const client = anonClient(url);
  const { data, error } = await client.auth.signInWithPassword({ email, password });
  if (error || !data.session) throw new Error(`sign-in as ${email} failed: ${error?.message}`);
  if (options.organization !== false) {
    const bound = await client.rpc("bind_session_organization", { p_organization_id: options.organization });
    if (bound.error || !(bound.data as RpcAnswer).success) {
      throw new Error(`binding ${email}'s session failed: ${JSON.stringify(bound.error ?? bound.data)}`);
    }
  }
  return { client, session: data.session };
}

/** Calls an RPC and returns its JSON answer, failing the test on a transport or SQL error. */
export async function rpc(client: CrmClient, name: string, args: Record<string, unknown> = {}): Promise<RpcAnswer> {
  const { data, error } = await client.rpc(name as never, args as never);
  if (error) throw new Error(`${name} failed: ${error.code} ${error.message}`);
  return data as RpcAnswer;
}

/**
 * Calls a privileged RPC (user administration, record transfer, organization manager) the way
 * its Edge Function does: with a fresh request-forgery token of this client's session in the
 * x-csrf-token header (the RPCs refuse without one). `token` sends a given one instead.
 */
export async function privilegedRpc(
  client: CrmClient,
  name: string,
  args: Record<string, unknown> = {},
  token?: string,
): Promise<RpcAnswer> {
  const requestToken = token ?? ((await rpc(client, "issue_request_token")).token as string);
  const { data, error } = await client.rpc(name as never, args as never).setHeader("x-csrf-token", requestToken);
  if (error) throw new Error(`${name} failed: ${error.code} ${error.message}`);
  return data as RpcAnswer;
}

/**
 * Calls an RPC and returns its answer when it succeeded; a refusal or a transport error
 * throws, carrying the refusal's code (so a batch runner can tell batch_out_of_order apart).
 */
export async function rpcSuccess<T extends object = Record<string, unknown>>(
  client: CrmClient,
  name: string,
  args: Record<string, unknown> = {},
): Promise<RpcAnswer & T> {
  const { data, error } = await client.rpc(name as never, args as never);
  const answer = data as (RpcAnswer & T) | null;
  if (error || !answer?.success) {
    throw Object.assign(new Error(`${name}: ${error?.message ?? JSON.stringify(data).slice(0, 500)}`), { code: answer?.code });
  }
  return answer;
}
