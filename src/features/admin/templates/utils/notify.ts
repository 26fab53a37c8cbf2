import type { TFunction } from "i18next";
import { notifyFailure } from "@/components/notify.ts";
import { templateError } from "./template-errors.ts";

/** A refused or failed template action, as a notification. */
export function notifyTemplateFailure(t: TFunction, error: unknown) {
  notifyFailure(t("adminTemplates.errors.title"), t(templateError(error).key));
}
