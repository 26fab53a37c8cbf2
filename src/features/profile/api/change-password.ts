import { useMutation, useQueryClient } from "@tanstack/react-query";
import { parseRpcResult } from "../../../lib/rpc.ts";
import { supabase } from "../../../lib/supabase.ts";
import { loginAttemptsQueryOptions } from "./get-login-attempts.ts";
import { passwordCheckSchema } from "./schemas.ts";

export interface PasswordChange {
  email: string;
  /** The session's organization: a super admin's password is checked within it too. */
  organizationSlug: string | undefined;
  currentPassword: string;
  newPassword: string;
}

/**
 * Checks the current password in the database first (the same check, lockout included, as
 * the sign-in), then sets the new one through Auth.
 */
async function changePassword({ email, organizationSlug, currentPassword, newPassword }: PasswordChange) {
  const checked = await supabase.rpc("secure_login_prepare_auth", {
    p_email: email,
    p_password: currentPassword,
    p_organization_slug: organizationSlug,
  });
  if (checked.error) throw checked.error;
  parseRpcResult(passwordCheckSchema, checked.data);

  const { error } = await supabase.auth.updateUser({ password: newPassword });
  if (error) throw error;
}

export function useChangePassword(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    // The check is logged as a login attempt, successful or not.
    onSettled: () => queryClient.invalidateQueries({ queryKey: loginAttemptsQueryOptions(userId).queryKey }),
  });
}
