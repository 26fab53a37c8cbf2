import { failureKey } from "@/lib/errors.ts";
import { RpcError } from "@/lib/rpc.ts";

export const knownRoleErrorCodes = [
  "invalid_role_key",
  "system_role",
  "invalid_role_name",
  "invalid_permissions",
  "admin_required",
  "role_in_use",
  "role_not_found",
  "organization_context_required",
] as const;
export type KnownRoleErrorCode = (typeof knownRoleErrorCodes)[number];

export interface RoleError {
  key: `adminRoles.errors.${KnownRoleErrorCode | "network" | "unknown"}`;
  /** The form field the message belongs under, when there is one. */
  field?: "key" | "name";
  /** role_in_use: how many members still hold the role. */
  count?: number;
}

/** Maps a failed role call to a catalogue key (never the raw error text). */
export function roleError(error: unknown): RoleError {
  const key = failureKey(error, "adminRoles.errors", knownRoleErrorCodes);
  if (key === "adminRoles.errors.invalid_role_key") return { key, field: "key" };
  if (key === "adminRoles.errors.invalid_role_name") return { key, field: "name" };
  if (key === "adminRoles.errors.role_in_use") {
    const count = Number(error instanceof RpcError ? error.details.member_count : undefined);
    return { key, count: Number.isFinite(count) ? count : 0 };
  }
  return { key };
}
