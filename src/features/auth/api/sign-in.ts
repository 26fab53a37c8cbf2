import { useMutation, useQueryClient } from "@tanstack/react-query";
import { forgetSignIn, recordSignIn, writeCurrentOrganization } from "@/lib/browser-storage.ts";
import { authClient, postRpc, RpcRequestError } from "@/lib/auth-client.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { SignInError, signInTimeoutMessage, signInWithDeadline, type SignInBackend, type SignInInput } from "./sign-in-flow.ts";

/** The app's backend: the Auth client, the Data API's RPCs and the browser's storage. */
export const supabaseSignInBackend: SignInBackend = {
  async rpc(name, args, signal) {
    try {
      return await postRpc(name, args, signal);
    } catch (error) {
      if (signal.aborted) throw new SignInError("timeout", signInTimeoutMessage);
      const message = error instanceof Error ? error.message : String(error);
      if (!(error instanceof RpcRequestError) || error.status === 0) throw new SignInError("network", message, { cause: error });
      throw new SignInError("login_error", `Login error: ${message}`, { cause: error });
    }
  },
  signInWithPassword: (credentials) => authClient.signInWithPassword(credentials),
  async signOutLocally() {
    await authClient.signOut({ scope: "local" });
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
