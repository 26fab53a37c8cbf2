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

function isKnown(code: string | undefined): code is KnownRoleErrorCode {
  return knownRoleErrorCodes.includes(code as KnownRoleErrorCode);
}

/** Maps a failed role call to a catalogue key (never the raw error text). */
export function roleError(error: unknown): RoleError {
  if (error instanceof RpcError) {
    if (!isKnown(error.code)) return { key: "adminRoles.errors.unknown" };
    const mapped: RoleError = { key: `adminRoles.errors.${error.code}` };
    if (error.code === "invalid_role_key") mapped.field = "key";
    if (error.code === "invalid_role_name") mapped.field = "name";
    if (error.code === "role_in_use") {
      const count = Number(error.details.member_count);
      mapped.count = Number.isFinite(count) ? count : 0;
    }
    return mapped;
  }
  if (error instanceof TypeError && /fetch/i.test(error.message)) return { key: "adminRoles.errors.network" };
  return { key: "adminRoles.errors.unknown" };
}
