/** How a contact's values read when two contacts are compared (duplicate warning, merge dialog). */
import type { ContactChannel } from "../api/contacts.ts";
import type { ChannelLabel } from "./contact-fields.ts";

/**
 * The columns of a contact's KVKK consent. A merge takes them together (private.prepare_contact
 * clears the channel, date and source of a consent withdrawn, and dates a consent without one),
 * so a consent chosen from the other contact keeps its own channel, date and source.
 */
export const consentColumns = ["kvkk_consent", "kvkk_consent_channel", "kvkk_consent_at", "kvkk_consent_source"] as const;

/** Emails or phones on one line ("İş: elif@example.com, Cep: +905321112233"); null when there are none. */
export function channelsLine(entries: readonly ContactChannel[], labelOf: (label: ChannelLabel) => string): string | null {
  return entries.length === 0 ? null : entries.map((entry) => `${labelOf(entry.label)}: ${entry.value}`).join(", ");
}

/** What tells a likely duplicate apart under its name: its emails, then its phones. */
export function duplicateDetails(duplicate: { emails: readonly ContactChannel[]; phones: readonly ContactChannel[] }): string {
  return [...duplicate.emails, ...duplicate.phones].map((entry) => entry.value).join(" · ");
}
