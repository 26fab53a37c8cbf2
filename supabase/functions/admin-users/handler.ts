/**
 * Privileged user administration (spec sections 5 and 6): create, update, delete, lock,
 * unlock and reset a password. The shape of the request is checked here; the rules (who may
 * do what, the spec's validation messages) are the database's, which runs as the caller.
 */
import { z } from "zod";
import { callRpc, privilegedHandler, type CallerClientFactory } from "../_shared/privileged.ts";

const id = z.guid();
// Generous outer limits only: the database applies the spec's rules and messages.
const text = (max: number) => z.string().max(max);

export const adminUsersRequest = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("create"),
    email: text(320),
    password: text(1024),
    organization_id: id.nullish(),
    first_name: text(200).nullish(),
    last_name: text(200).nullish(),
    role: text(40).nullish(),
  }),
  z.object({
    action: z.literal("update"),
    user_id: id,
    user_data: z
      .object({
        first_name: text(200),
        last_name: text(200),
        email: text(320),
        role: text(40),
        is_active: z.boolean(),
      })
      .partial()
      .strict(),
    organization_slug: text(30).nullish(),
  }),
  z.object({ action: z.literal("delete"), user_id: id, organization_id: id.nullish() }),
  z.object({ action: z.literal("lock"), user_id: id }),
  z.object({ action: z.literal("unlock"), user_id: id }),
  z.object({ action: z.literal("reset_password"), user_id: id, new_password: text(1024) }),
]);

export function createHandler(clientForCaller: CallerClientFactory) {
  return privilegedHandler(
    adminUsersRequest,
    {
      create: (caller, input) =>
        callRpc(caller, "create_user_secure", {
          p_email: input.email,
          p_password: input.password,
          p_organization_id: input.organization_id ?? null,
          p_first_name: input.first_name ?? null,
          p_last_name: input.last_name ?? null,
          p_role: input.role ?? "user",
        }, "Auth user creation error"),
      update: (caller, input) =>
        callRpc(caller, "update_user_secure", {
          p_user_id: input.user_id,
          p_user_data: input.user_data,
          p_organization_slug: input.organization_slug ?? null,
        }, "User update failed"),
      delete: (caller, input) =>
        callRpc(caller, "delete_user_secure", { p_user_id: input.user_id, p_organization_id: input.organization_id ?? null }, "User update failed"),
      lock: (caller, input) => callRpc(caller, "lock_user_secure", { p_user_id: input.user_id }, "User update failed"),
      unlock: (caller, input) => callRpc(caller, "unlock_user_secure", { p_user_id: input.user_id }, "User update failed"),
      reset_password: (caller, input) =>
        callRpc(caller, "simple_reset_password", { p_user_id: input.user_id, p_new_password: input.new_password }, "Password reset error"),
    },
    clientForCaller,
  );
}
