import { failureKey } from "@/lib/errors.ts";

/** Refusal codes of the template RPCs the screen has a text for (adminTemplates.errors.*). */
export const knownTemplateErrorCodes = [
  "invalid_kind",
  "invalid_name",
  "body_too_long",
  "template_not_found",
  "admin_required",
  "tables_not_found",
] as const;
type KnownCode = (typeof knownTemplateErrorCodes)[number];

export type TemplateField = "name" | "kind" | "body";

export interface TemplateError {
  /** The form field the message belongs under; none for a message about the whole action. */
  field?: TemplateField;
  key: `adminTemplates.errors.${KnownCode | "network" | "unknown"}`;
}

const fieldByKey: Partial<Record<TemplateError["key"], TemplateField>> = {
  "adminTemplates.errors.invalid_kind": "kind",
  "adminTemplates.errors.invalid_name": "name",
  "adminTemplates.errors.body_too_long": "body",
};

/** Maps a failed template call to a translated message, so raw errors never reach the screen. */
export function templateError(error: unknown): TemplateError {
  const key = failureKey(error, "adminTemplates.errors", knownTemplateErrorCodes);
  const field = fieldByKey[key];
  return field ? { field, key } : { key };
}
