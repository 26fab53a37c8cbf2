import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import { invokePrivileged } from "@/lib/privileged-functions.ts";
import { parseRpcResult } from "@/lib/rpc.ts";
import { loginAttemptsSchema } from "@/lib/login-attempts.ts";
import { adminUserKeys, userListArgs, type UserListArgs, type UserListState } from "../utils/list-params.ts";
import {
  organizationUsersSchema,
  recordAnalysisSchema,
  transferCandidatesSchema,
  type OrganizationUsers,
} from "./schemas.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";

/** Login attempts an admin sees for a member (spec section 9: the 20 newest). */
export const LOGIN_ATTEMPTS_LIMIT = 20;

async function getOrganizationUsers(args: UserListArgs): Promise<OrganizationUsers> {
  const rpcArgs = {
    ...args,
    // The generated types spell optional text arguments as non-null.
    p_search: args.p_search ?? undefined,
    p_role: args.p_role ?? undefined,
    p_status: args.p_status ?? undefined,
  };
  return rpc("get_organization_users", rpcArgs, organizationUsersSchema);
}

export function organizationUsersQueryOptions(scope: OrganizationScope, state: UserListState) {
  const args = userListArgs(state);
  return queryOptions({
    queryKey: adminUserKeys.list(scope, args),
    queryFn: () => getOrganizationUsers(args),
    // The previous page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}

export function useOrganizationUsers(scope: OrganizationScope, state: UserListState) {
  return useQuery(organizationUsersQueryOptions(scope, state));
}

export function useUserLoginAttempts(scope: OrganizationScope, userId: string) {
  return useQuery({
    queryKey: adminUserKeys.loginAttempts(scope, userId),
    queryFn: async () =>
      (await rpc("get_login_attempts", { p_user_id: userId, p_limit: LOGIN_ATTEMPTS_LIMIT }, loginAttemptsSchema)).attempts,
  });
}

export function useRecordAnalysis(scope: OrganizationScope, userId: string) {
  return useQuery({
    queryKey: adminUserKeys.recordAnalysis(scope, userId),
    queryFn: async () =>
      parseRpcResult(recordAnalysisSchema, await invokePrivileged("admin-transfer", { action: "analyze", user_id: userId })),
  });
}

export function useTransferCandidates(scope: OrganizationScope, excludeUserId: string) {
  return useQuery({
    queryKey: adminUserKeys.transferCandidates(scope, excludeUserId),
    queryFn: async () =>
      parseRpcResult(
        transferCandidatesSchema,
        await invokePrivileged("admin-transfer", { action: "users", exclude_user_id: excludeUserId }),
      ).users,
  });
}
