import type { TFunction } from "i18next";
import { notifyFailure } from "@/components/notify.ts";
import { userAdminError } from "../utils/user-errors.ts";

/** A refused or failed user action, as a notification. */
export function notifyUserFailure(t: TFunction, error: unknown) {
  notifyFailure(t("adminUsers.notifications.failed"), t(userAdminError(error).key));
}
