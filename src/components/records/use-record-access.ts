import { useMyPermissions } from "@/modules/permissions.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { recordAccess, type RecordAction } from "./record-access.ts";

/**
 * The signed-in user's access to records of a module: a function of the action and the
 * record's owner (every action denied while the permissions load, or without a module).
 */
export function useRecordAccess(module: ModuleKey | undefined) {
  const session = useSignedInSession();
  const permissions = useMyPermissions();
  const granted = module === undefined ? undefined : permissions.data?.permissions[module];
  return {
    permissions: granted,
    userId: session.user.id,
    access: (action: RecordAction, ownerId: string) => recordAccess(granted, action, ownerId, session.user.id),
  };
}
