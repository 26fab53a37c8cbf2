/**
 * The organization manager (super admins only, spec sections 2 and 6): list organizations,
 * create one (its tables are provisioned in the same transaction) and change its name, plan,
 * subscription status or activity. The database checks that the caller is a super admin.
 */
import { z } from "zod";
import { callRpc, privilegedHandler, type CallerClientFactory } from "../_shared/privileged.ts";

export const adminOrganizationsRequest = z.discriminatedUnion("action", [
  z.object({ action: z.literal("list") }),
  z.object({
    action: z.literal("create"),
    slug: z.string().max(30),
    name: z.string().max(200),
    subscription_plan: z.string().max(30).default("basic"),
  }),
  z.object({
    action: z.literal("update"),
    organization_id: z.guid(),
    changes: z
      .object({
        name: z.string().max(200),
        subscription_plan: z.string().max(30),
        subscription_status: z.string().max(30),
        is_active: z.boolean(),
      })
      .partial()
      .strict(),
  }),
]);

export function createHandler(clientForCaller: CallerClientFactory) {
  return privilegedHandler(
    adminOrganizationsRequest,
    {
      list: (caller) => callRpc(caller, "list_organizations", {}, "Failed to fetch organizations"),
      create: (caller, input) =>
        callRpc(caller, "create_organization", {
          p_slug: input.slug,
          p_name: input.name,
          p_subscription_plan: input.subscription_plan,
        }, "Organization creation failed"),
      update: (caller, input) =>
        callRpc(caller, "update_organization", { p_organization_id: input.organization_id, p_changes: input.changes }, "Organization update failed"),
    },
    clientForCaller,
  );
}
