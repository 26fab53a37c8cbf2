import { mapFailure } from "@/lib/errors.ts";

/** Why an admin console call (database view, audit log, switcher) failed, as the screens word it. */
export type ConsoleErrorReason =
  | "adminRequired"
  | "superAdminRequired"
  | "organizationRequired"
  | "notFound"
  | "network"
  | "unknown";

const byCode: Record<string, ConsoleErrorReason> = {
  admin_required: "adminRequired",
  super_admin_required: "superAdminRequired",
  organization_context_required: "organizationRequired",
  organization_required: "organizationRequired",
  organization_not_found: "notFound",
};

/** Maps a failed call to a reason the catalogue has a text for; raw errors never reach the screen. */
export function consoleErrorReason(error: unknown): ConsoleErrorReason {
  return mapFailure(error, byCode, { network: "network", unknown: "unknown" });
}
