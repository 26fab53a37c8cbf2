import type { TFunction } from "i18next";
import { notifyFailure } from "@/components/notify.ts";
import type { SettingsError } from "../utils/settings-errors.ts";

/** A refusal that belongs to no field of the form, as a notification. */
export function notifySettingsFailure(t: TFunction, failure: SettingsError) {
  const message = failure.field ? t("adminSettings.errors.invalidField", { field: failure.field }) : t(failure.key);
  notifyFailure(t("adminSettings.errors.title"), message);
}
