import { notifications } from "@mantine/notifications";
import type { TFunction } from "i18next";
import type { SettingsError } from "../utils/settings-errors.ts";

export function notifySaved(t: TFunction) {
  notifications.show({ color: "green", message: t("adminSettings.saved") });
}

/** A refusal that belongs to no field of the form, in words from the catalogue. */
export function notifyFailure(t: TFunction, failure: SettingsError) {
  const message = failure.field
    ? t("adminSettings.errors.invalidField", { field: failure.field })
    : t(failure.key);
  notifications.show({ color: "red", title: t("adminSettings.errors.title"), message });
}
