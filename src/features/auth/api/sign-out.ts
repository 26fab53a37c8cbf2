import { useMutation } from "@tanstack/react-query";
import { supabase } from "../../../lib/supabase.ts";

async function signOut(): Promise<void> {
  // "local" ends this browser's session only; the user's other devices stay signed in.
  const { error } = await supabase.auth.signOut({ scope: "local" });
  if (error) throw error;
}

export function useSignOut() {
  return useMutation({ mutationFn: signOut });
}
