import type { TFunction } from "i18next";
import { notifyFailure } from "@/components/notify.ts";
import type { OrganizationError } from "./organization-errors.ts";

/** A failure that belongs to no form field, as a notification. */
export function notifyOrganizationFailure(t: TFunction, failure: OrganizationError) {
  notifyFailure(t("organizationManager.errors.title"), t(failure.key));
}
