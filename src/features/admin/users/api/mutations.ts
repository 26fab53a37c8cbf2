import { useMutation, useQueryClient } from "@tanstack/react-query";
import { invokePrivileged } from "@/lib/privileged-functions.ts";
import { parseRpcResult } from "@/lib/rpc.ts";
import { transferRequest, type TransferOptions } from "../utils/transfer.ts";
import { adminUserKeys } from "../utils/list-params.ts";
import type { UserData } from "../utils/user-forms.ts";
import { adminUsersAnswerSchema, transferResultSchema } from "./schemas.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";

export type UserAction =
  | {
      action: "create";
      email: string;
      password: string;
      /** Required by the database (spec section 5: 'Şirket bilgisi gerekli' without it). */
      organization_id: string | null;
      first_name: string;
      last_name: string;
      role: string;
    }
  | { action: "update"; user_id: string; user_data: UserData }
  | { action: "delete"; user_id: string }
  | { action: "lock"; user_id: string }
  | { action: "unlock"; user_id: string }
  | { action: "reset_password"; user_id: string; new_password: string };

async function runUserAction(request: UserAction) {
  return parseRpcResult(adminUsersAnswerSchema, await invokePrivileged("admin-users", request));
}

/**
 * Any write of the `admin-users` function. Whatever the outcome, everything this screen read
 * for the organization is read again (a refusal can mean the list is out of date too).
 */
export function useUserAction(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: runUserAction,
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUserKeys.all(scope) }),
  });
}

export interface TransferInput {
  fromUserId: string;
  toUserId: string;
  options: TransferOptions;
}

export function useTransferRecords(scope: OrganizationScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ fromUserId, toUserId, options }: TransferInput) =>
      parseRpcResult(transferResultSchema, await invokePrivileged("admin-transfer", transferRequest(fromUserId, toUserId, options))),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminUserKeys.all(scope) }),
  });
}
