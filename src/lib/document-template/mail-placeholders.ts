/**
 * The placeholders an e-mail template (private.mail_templates) may use, by kind: a record's
 * e-mail offers the text placeholders of its document kind (the quote's or the contract's,
 * custom fields' included) and the sender's; a reset link and a notification digest their
 * own. Filled by whoever sends: the record's composer in the browser, the password-reset and
 * notification-digests functions for theirs.
 */
import { placeholdersByGroup, type PlaceholderGroup, type TemplateKind } from "./placeholders.ts";

export const mailTemplateKinds = ["quote", "contract", "contract_renewal", "password_reset", "notification_digest"] as const;
export type MailTemplateKind = (typeof mailTemplateKinds)[number];

/** The e-mail's own placeholders (not in a PDF): who sends it, and a reset link's. */
export const senderPlaceholders = ["sender.name", "sender.email", "sender.phone"] as const;
export const resetPlaceholders = ["user.name", "reset.link", "reset.minutes", "organization.name"] as const;
export const digestPlaceholders = ["user.name", "organization.name", "digest.count", "digest.items", "digest.link"] as const;
export type MailPlaceholder = (typeof senderPlaceholders)[number] | (typeof resetPlaceholders)[number] | (typeof digestPlaceholders)[number];

/** The document kind whose placeholders a record's e-mail fills (a renewal reminder is about a contract). */
export const mailDocumentKind: Record<Exclude<MailTemplateKind, "password_reset" | "notification_digest">, TemplateKind> = {
  quote: "quote",
  contract: "contract",
  contract_renewal: "contract",
};

// Tables, the logo and long legal parts have no place in an e-mail's text.
const notInMail: ReadonlySet<PlaceholderGroup> = new Set(["items"]);

export type MailPlaceholderGroup = PlaceholderGroup | "sender" | "reset" | "digest";

/** The placeholders offered for an e-mail template of a kind, grouped (the sender's last). */
export function mailPlaceholdersByGroup(kind: MailTemplateKind): { group: MailPlaceholderGroup; names: string[] }[] {
  if (kind === "password_reset") return [{ group: "reset", names: [...resetPlaceholders] }];
  if (kind === "notification_digest") return [{ group: "digest", names: [...digestPlaceholders] }];
  return [
    ...placeholdersByGroup(mailDocumentKind[kind])
      .filter((entry) => !notInMail.has(entry.group))
      .map((entry) => ({ group: entry.group, names: entry.names.filter((name) => name !== "organization.logo") })),
    { group: "sender", names: [...senderPlaceholders] },
  ];
}

/** Every placeholder an e-mail template of a kind may use (the names the editor and the sender know). */
export function mailPlaceholderNames(kind: MailTemplateKind): ReadonlySet<string> {
  return new Set(mailPlaceholdersByGroup(kind).flatMap((entry) => entry.names));
}
