import type { TFunction } from "i18next";
import { notifyFailure } from "@/components/notify.ts";
import type { RoleError } from "../utils/role-errors.ts";

/** A refused or failed role action that belongs to no form field, as a notification. */
export function notifyRoleFailure(t: TFunction, failure: RoleError) {
  notifyFailure(t("adminRoles.errors.title"), t(failure.key, { count: failure.count ?? 0 }));
}
