import { useMutation, useQueryClient } from "@tanstack/react-query";
import { forgetSignIn, recordSignIn, writeCurrentOrganization } from "@/lib/browser-storage.ts";
import { supabase } from "@/lib/supabase.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { SignInError, signInTimeoutMessage, signInWithDeadline, type SignInBackend, type SignInInput } from "./sign-in-flow.ts";

/** The app's backend: the one Supabase client and the browser's storage. */
export const supabaseSignInBackend: SignInBackend = {
  async rpc(name, args, signal) {
    const { data, error, status } = await supabase.rpc(name as never, args as never).abortSignal(signal);
    if (error) {
      if (signal.aborted) throw new SignInError("timeout", signInTimeoutMessage);
      if (status === 0) throw new SignInError("network", error.message, { cause: error });
      throw new SignInError("login_error", `Login error: ${error.message}`, { cause: error });
    }
    return data;
  },
  signInWithPassword: (credentials) => supabase.auth.signInWithPassword(credentials),
  async signOutLocally() {
    await supabase.auth.signOut({ scope: "local" });
  },
  recordSignIn: (userId) => recordSignIn(userId, Date.now()),
  forgetSignIn,
  rememberOrganization: writeCurrentOrganization,
};

export const signInMutationKey = ["auth", "sign-in"] as const;

/** On success the session provider has the session; the login page then goes on. */
export function useSignIn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationKey: signInMutationKey,
    mutationFn: (input: SignInInput) => signInWithDeadline(supabaseSignInBackend, input),
    // Nothing cached before this sign-in (or before the binding) may answer for this session.
    onSuccess: ({ userId }) => queryClient.removeQueries({ queryKey: queryKeys.user(userId) }),
  });
}
