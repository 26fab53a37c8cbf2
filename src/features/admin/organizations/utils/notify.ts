import { notifications } from "@mantine/notifications";
import type { TFunction } from "i18next";
import type { OrganizationError } from "./organization-errors.ts";

/** Tells a failure that belongs to no form field in a red notification (translated, never raw). */
export function notifyFailure(t: TFunction, failure: OrganizationError) {
  notifications.show({ color: "red", title: t("organizationManager.errors.title"), message: t(failure.key) });
}
