import { failureKey } from "@/lib/errors.ts";

/** Refusal codes of the e-mail template RPCs the screen has a text for (adminTemplates.mail.errors.*). */
export const knownMailTemplateErrorCodes = ["invalid_kind", "invalid_language", "invalid_subject", "invalid_body", "admin_required"] as const;
type KnownCode = (typeof knownMailTemplateErrorCodes)[number];

export interface MailTemplateError {
  /** The form field the message belongs under; none for a message about the whole action. */
  field?: "subject" | "body";
  key: `adminTemplates.mail.errors.${KnownCode | "network" | "unknown"}`;
}

/** Maps a failed e-mail template call to a translated message, so raw errors never reach the screen. */
export function mailTemplateError(error: unknown): MailTemplateError {
  const key = failureKey(error, "adminTemplates.mail.errors", knownMailTemplateErrorCodes);
  if (key === "adminTemplates.mail.errors.invalid_subject") return { field: "subject", key };
  if (key === "adminTemplates.mail.errors.invalid_body") return { field: "body", key };
  return { key };
}
