import { useMutation } from "@tanstack/react-query";
import { useSessionActions } from "./session-context.ts";

/**
 * Signs out of this browser (spec §4): the session and the app's session data are cleared and,
 * about 100 ms later, the app is on /login. The mutation settles once that has happened, so
 * callers need not navigate themselves. It does not fail: if Auth cannot be reached, the
 * session is removed from the browser anyway.
 */
export function useSignOut() {
  const { signOut } = useSessionActions();
  return useMutation({ mutationKey: ["auth", "sign-out"], mutationFn: () => signOut("signedOut") });
}
