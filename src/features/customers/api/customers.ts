import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { RpcError } from "@/lib/rpc.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { customerKeys, customerListArgs, type CustomerListArgs, type CustomerListState } from "../utils/list-params.ts";

const customerRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  owner_id: z.string(),
  owner_name: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CustomerRow = z.infer<typeof customerRowSchema>;

/** The record engine's list answer (private.record_list), as this page reads it. */
const customerPageSchema = z
  .object({
    success: z.literal(true),
    /** all: every customer of the organization; own: only the caller's. */
    scope: z.enum(["all", "own"]),
    /** Exact up to 10,000 matches; beyond, total_exact is false and total stays 10,000. */
    total: z.number().int().nonnegative(),
    total_exact: z.boolean(),
    records: z.array(customerRowSchema),
  })
  .transform(({ records, ...page }) => ({ ...page, customers: records }));
export type CustomerPage = z.output<typeof customerPageSchema>;

async function listCustomers(args: CustomerListArgs): Promise<CustomerPage> {
  return rpc("list_customers", args, customerPageSchema);
}

/**
 * One page of the customers the signed-in user may see. A refusal means the role changed
 * since the page opened: the permissions are read again, and the module's guard answers.
 */
export function useCustomerList(state: CustomerListState) {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  const args = customerListArgs(state);
  return useQuery({
    queryKey: customerKeys.list(scope, args),
    queryFn: async () => {
      try {
        return await listCustomers(args);
      } catch (error) {
        if (error instanceof RpcError && error.code === "permission_denied") {
          void queryClient.invalidateQueries({ queryKey: queryKeys.modulePermissions(scope.sessionUserId) });
        }
        throw error;
      }
    },
    // The previous page stays on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
}
