import { notifications } from "@mantine/notifications";
import type { TFunction } from "i18next";
import { templateError } from "./template-errors.ts";

export function notifySuccess(message: string) {
  notifications.show({ color: "green", message });
}

/** A refused or failed action, in words from the catalogue (never the raw error). */
export function notifyFailure(t: TFunction, error: unknown) {
  notifications.show({ color: "red", title: t("adminTemplates.errors.title"), message: t(templateError(error).key) });
}
