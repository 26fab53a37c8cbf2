/**
 * A record's e-mail in words: its template's text with the placeholders filled as the PDF
 * fills them (fillMailText), the sender's placeholders, and its refusals by code.
 */
import { renderMailText } from "@/lib/document-template/render.ts";
import type { PlaceholderValues } from "@/lib/document-template/placeholders.ts";
import { failureKey } from "@/lib/errors.ts";
import { smtpFailureCodes } from "@/lib/mail-failures.ts";
import { formatPhone } from "@/lib/phone.ts";
import { mailPlaceholderNames, senderPlaceholders } from "@/lib/document-template/mail-placeholders.ts";

export const recordMailKinds = ["quote", "contract", "contract_renewal"] as const;
export type RecordMailKind = (typeof recordMailKinds)[number];

type SenderPlaceholder = (typeof senderPlaceholders)[number];

/** The sender's own placeholders (sender.name, sender.email, sender.phone) from the signed-in user's profile. */
export function senderValues(user: {
  first_name: string | null;
  last_name: string | null;
  email: string;
  phone?: string | null;
}): Record<SenderPlaceholder, string> {
  const name = [user.first_name, user.last_name].filter((part) => part?.trim()).join(" ");
  return { "sender.name": name || user.email, "sender.email": user.email, "sender.phone": formatPhone(user.phone) ?? "" };
}

/**
 * A template's subject or body as sent: each placeholder its kind offers
 * (mailPlaceholdersByGroup: the document's text placeholders and the sender's) its value as
 * the PDF prints it (nothing when the record has none), a custom field's its value, any other
 * as written, as the admin's preview shows it (renderMailText).
 */
export function fillMailText(kind: RecordMailKind, text: string, values: PlaceholderValues, sender: Record<SenderPlaceholder, string>): string {
  return renderMailText(text, { ...values, ...sender }, mailPlaceholderNames(kind))
    .map((segment) => segment.text)
    .join("");
}

/** The refusals a record's e-mail can meet, each with its message (documentKit.mail.errors). */
export const recordMailFailureCodes = [
  ...smtpFailureCodes,
  "attachment_unreadable",
  "document_not_found",
  "quote_not_marked",
  "invalid_fields",
  "stale_record",
  "not_found",
  "permission_denied",
  "items_required",
  "exchange_rate_required",
  "quote_superseded",
  "invalid_transition",
] as const;

/** The message key of a failed sending. */
export function mailFailureKey(error: unknown) {
  return failureKey(error, "documentKit.mail.errors", recordMailFailureCodes);
}

/** The message key of a logged e-mail's error code (the timeline's failed e-mail). */
export function mailErrorCodeKey(code: string | null) {
  const known = recordMailFailureCodes.find((candidate) => candidate === code);
  return `documentKit.mail.errors.${known ?? "unknown"}` as const;
}
