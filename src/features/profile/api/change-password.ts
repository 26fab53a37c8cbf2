import { useMutation, useQueryClient } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { loginAttemptsQueryOptions } from "./get-login-attempts.ts";
import { passwordChangedSchema } from "./schemas.ts";

export interface PasswordChange {
  currentPassword: string;
  newPassword: string;
}

/**
 * Changes the signed-in user's password in one database call (`change_my_password`): it checks
 * the current password (a wrong one counts toward the lockout), applies the rules for the new one
 * and ends the user's other sessions. Throws RpcError with the refusal's code.
 */
async function changePassword({ currentPassword, newPassword }: PasswordChange) {
  const args = { p_current_password: currentPassword, p_new_password: newPassword };
  await rpc("change_my_password", args, passwordChangedSchema);
}

/** The password change, after which the user's login attempts (a wrong current password is one) reload. */
export function useChangePassword(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSettled: () => queryClient.invalidateQueries({ queryKey: loginAttemptsQueryOptions(userId).queryKey }),
  });
}
