import { notifications } from "@mantine/notifications";
import type { TFunction } from "i18next";
import type { RoleError } from "../utils/role-errors.ts";

export function notifySuccess(message: string) {
  notifications.show({ color: "green", message });
}

/** A refused or failed action, in words from the catalogue (never the raw error). */
export function notifyFailure(t: TFunction, failure: RoleError) {
  notifications.show({ color: "red", title: t("adminRoles.errors.title"), message: t(failure.key, { count: failure.count ?? 0 }) });
}
