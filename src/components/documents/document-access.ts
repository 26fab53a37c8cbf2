import { canOpenModule } from "@/modules/access.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import type { DocumentRow } from "./document-api.ts";

/**
 * What the signed-in member may do with documents, from their role (the server checks every
 * call again): see them, upload new ones, upload a new version of one (edit) and delete or
 * restore one (delete), each of the last two for every document (scope all) or only their own.
 */
export function useDocumentAccess() {
  const session = useSignedInSession();
  const permissions = useMyPermissions();
  const granted = permissions.data?.permissions ?? {};
  const allowed = granted.documents ?? {};
  const mayChange = (scope: "own" | "all" | undefined, document: Pick<DocumentRow, "owner_id">) =>
    scope === "all" || (scope === "own" && document.owner_id === session.user.id);
  return {
    known: permissions.isSuccess,
    canView: permissions.isSuccess ? canOpenModule(granted, "documents") : true,
    canCreate: allowed.create !== undefined,
    canEdit: (document: Pick<DocumentRow, "owner_id">) => mayChange(allowed.edit, document),
    canDelete: (document: Pick<DocumentRow, "owner_id">) => mayChange(allowed.delete, document),
    /** May see deleted documents (all or their own) and restore them: the delete permission. */
    canRestore: allowed.delete !== undefined,
  };
}
