/**
 * The organization manager (super admins only, spec sections 2 and 6): list organizations,
 * create one (its tables provisioned and, when given, its first admin created in the same
 * transaction; with an empty slug the database derives it from the name) and change its name, plan,
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
    first_admin: z
      .object({
        email: z.string().max(320),
        password: z.string().max(200),
        first_name: z.string().max(100).optional(),
        last_name: z.string().max(100).optional(),
      })
      .strict()
      .optional(),
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
          p_admin_email: input.first_admin?.email ?? null,
          p_admin_password: input.first_admin?.password ?? null,
          p_admin_first_name: input.first_admin?.first_name ?? null,
          p_admin_last_name: input.first_admin?.last_name ?? null,
        }, "Organization creation failed"),
      update: (caller, input) =>
        callRpc(caller, "update_organization", { p_organization_id: input.organization_id, p_changes: input.changes }, "Organization update failed"),
    },
    clientForCaller,
  );
}
