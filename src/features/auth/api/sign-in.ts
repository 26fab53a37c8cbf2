import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { parseRpcResult } from "../../../lib/rpc.ts";
import { supabase } from "../../../lib/supabase.ts";
import type { Credentials } from "./schemas.ts";

const preparedSchema = z.object({
  success: z.literal(true),
  user: z.object({ id: z.guid() }),
  organization: z.object({ id: z.guid() }),
});

/**
 * The spec's login flow (section 7): the database checks the password and the lockout and
 * names the organization; Auth signs in; the session is bound to that organization
 * server-side; the sign-in time is recorded.
 */
async function signIn(credentials: Credentials): Promise<void> {
  const prepared = await supabase.rpc("secure_login_prepare_auth", {
    p_email: credentials.email,
    p_password: credentials.password,
  });
  if (prepared.error) throw prepared.error;
  const { user, organization } = parseRpcResult(preparedSchema, prepared.data);

  const { error } = await supabase.auth.signInWithPassword(credentials);
  if (error) throw error;

  const bound = await supabase.rpc("bind_session_organization", { p_organization_id: organization.id });
  if (bound.error) throw bound.error;
  parseRpcResult(z.object({ success: z.literal(true) }), bound.data);

  const recorded = await supabase.rpc("update_user_last_login", { p_user_id: user.id });
  if (recorded.error) throw recorded.error;
}

/** On success the session provider sees SIGNED_IN, and the login route sends the user home. */
export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
