import { useMutation } from "@tanstack/react-query";
import { supabase } from "../../../lib/supabase.ts";
import type { Credentials } from "./schemas.ts";

async function signIn(credentials: Credentials): Promise<void> {
  const { error } = await supabase.auth.signInWithPassword(credentials);
  if (error) throw error;
}

/** On success the session provider sees SIGNED_IN, and the login route sends the user home. */
export function useSignIn() {
  return useMutation({ mutationFn: signIn });
}
