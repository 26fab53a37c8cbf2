import { useCallback, useState } from "react";
import { forgetSignIn, recordSignIn, writeCurrentOrganization } from "@/lib/browser-storage.ts";
import { loadAuthClient, postRpc, RpcRequestError } from "@/lib/auth-client.ts";
import { forgetCachedUserData } from "@/session/cached-data.ts";
import {
  SignInError,
  signInTimeoutMessage,
  signInWithDeadline,
  type SignInBackend,
  type SignInInput,
  type SignInResult,
} from "./sign-in-flow.ts";

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
  signInWithPassword: async (credentials) => (await loadAuthClient()).signInWithPassword(credentials),
  async signOutLocally() {
    await (await loadAuthClient()).signOut({ scope: "local" });
  },
  recordSignIn: (userId) => recordSignIn(userId, Date.now()),
  forgetSignIn,
  rememberOrganization: writeCurrentOrganization,
};

/** Where a sign-in stands: not tried yet, running, failed (with why) or done. */
export type SignInState =
  | { status: "idle" }
  | { status: "pending" }
  | { status: "error"; error: unknown }
  | { status: "success"; result: SignInResult };

/**
 * The login form's sign-in (the first screen does without TanStack Query). On success the
 * session provider has the session, and `onSuccess` goes on (the login page navigates).
 */
export function useSignIn() {
  const [state, setState] = useState<SignInState>({ status: "idle" });
  const signIn = useCallback((input: SignInInput, { onSuccess }: { onSuccess(result: SignInResult): void }) => {
    setState({ status: "pending" });
    signInWithDeadline(supabaseSignInBackend, input).then(
      (result) => {
        // Nothing cached before this sign-in (or before the binding) may answer for this session.
        forgetCachedUserData(result.userId);
        setState({ status: "success", result });
        onSuccess(result);
      },
      (error: unknown) => setState({ status: "error", error }),
    );
  }, []);
  return { state, signIn };
}
