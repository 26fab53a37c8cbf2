/**
 * Moving a user's records to another user (spec sections 3 and 7): analyse what they own,
 * list who can receive, transfer the chosen kinds. The database checks the caller and keeps
 * everything inside one organization; the transfer is all or nothing there.
 */
import { z } from "zod";
import { callRpc, privilegedHandler, type CallerClientFactory } from "../_shared/privileged.ts";

const id = z.guid();
const organizationSlug = z.string().max(30).nullish();

export const adminTransferRequest = z.discriminatedUnion("action", [
  z.object({ action: z.literal("analyze"), user_id: id, organization_slug: organizationSlug }),
  z.object({ action: z.literal("users"), exclude_user_id: id.nullish(), organization_slug: organizationSlug }),
  z.object({
    action: z.literal("transfer"),
    from_user_id: id,
    to_user_id: id,
    organization_slug: organizationSlug,
    // The transfer kinds to move (the database's list decides which exist); none named: the
    // kinds on by default there (spec section 9: deals, customers and tasks).
    kinds: z.array(z.string().regex(/^[a-z][a-z_]{0,39}$/)).max(50).optional(),
  }),
]);

export function createHandler(clientForCaller: CallerClientFactory) {
  return privilegedHandler(
    adminTransferRequest,
    {
      analyze: (caller, input) =>
        callRpc(caller, "analyze_user_records", {
          target_user_id: input.user_id,
          organization_slug: input.organization_slug ?? null,
        }, "Analysis error"),
      users: (caller, input) =>
        callRpc(caller, "get_users_for_transfer", {
          organization_slug: input.organization_slug ?? null,
          exclude_user_id: input.exclude_user_id ?? null,
        }, "Failed to fetch users"),
      transfer: (caller, input) =>
        callRpc(caller, "transfer_user_records", {
          from_user_id: input.from_user_id,
          to_user_id: input.to_user_id,
          organization_slug: input.organization_slug ?? null,
          kinds: input.kinds ?? null,
        }, "Transfer error"),
    },
    clientForCaller,
  );
}
