import { mapFailure } from "@/lib/errors.ts";

export type OrganizationErrorKey =
  | "organizationManager.errors.slugTaken"
  | "organizationManager.errors.slugInvalid"
  | "organizationManager.errors.nameInvalid"
  | "organizationManager.errors.planInvalid"
  | "organizationManager.errors.invalidInput"
  | "organizationManager.errors.notFound"
  | "organizationManager.errors.superAdminRequired"
  | "organizationManager.errors.network"
  | "organizationManager.errors.unknown";

export interface OrganizationError {
  /** The form field the message belongs under; none for a message about the whole form. */
  field?: "slug" | "name" | "plan";
  key: OrganizationErrorKey;
}

const byCode: Record<string, OrganizationError> = {
  slug_taken: { field: "slug", key: "organizationManager.errors.slugTaken" },
  invalid_slug: { field: "slug", key: "organizationManager.errors.slugInvalid" },
  invalid_name: { field: "name", key: "organizationManager.errors.nameInvalid" },
  invalid_plan: { field: "plan", key: "organizationManager.errors.planInvalid" },
  invalid_input: { key: "organizationManager.errors.invalidInput" },
  // The function's own check of the body (zod), e.g. a slug over 30 characters.
  invalid_request: { key: "organizationManager.errors.invalidInput" },
  organization_not_found: { key: "organizationManager.errors.notFound" },
  super_admin_required: { key: "organizationManager.errors.superAdminRequired" },
  admin_required: { key: "organizationManager.errors.superAdminRequired" },
};

/**
 * Maps a failed call of `admin-organizations` to a translated message, under the field it
 * concerns when there is one, so raw errors never reach the screen.
 */
export function organizationError(error: unknown): OrganizationError {
  return mapFailure(error, byCode, {
    network: { key: "organizationManager.errors.network" },
    unknown: { key: "organizationManager.errors.unknown" },
  });
}
