import { useMutation } from "@tanstack/react-query";
import { z } from "zod";
import { findDuplicates, recordBaseSchema, useInvalidateRecords } from "@/components/records/record-api.ts";
import { recordDuplicateSchema } from "@/components/records/record-duplicates.ts";
import { rpc } from "@/lib/call-rpc.ts";
import { channelLabels, consentChannels } from "../utils/contact-fields.ts";

const channelSchema = z.object({ label: z.enum(channelLabels).catch("other"), value: z.string() });
export type ContactChannel = z.infer<typeof channelSchema>;

/** A contact's row in the list (the module's list columns). */
export const contactRowSchema = recordBaseSchema.extend({
  customer_id: z.string().nullable(),
  /** The customer's name (the engine's <link>_name), when the answer carries it. */
  customer_name: z.string().nullable().optional(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  title: z.string().nullable(),
  emails: z.array(channelSchema).catch([]),
  phones: z.array(channelSchema).catch([]),
  tags: z.array(z.string()).catch([]),
  kvkk_consent: z.boolean(),
});
export type ContactRow = z.infer<typeof contactRowSchema>;

export const contactSchema = contactRowSchema.extend({
  description: z.string().nullable(),
  kvkk_consent_channel: z.enum(consentChannels).nullable().catch(null),
  kvkk_consent_at: z.string().nullable(),
  kvkk_consent_source: z.string().nullable(),
  iys_consent: z.object({ call: z.boolean(), sms: z.boolean(), email: z.boolean() }).catch({ call: false, sms: false, email: false }),
});
export type Contact = z.infer<typeof contactSchema>;


export interface ContactValues {
  customer_id: string | null;
  first_name: string | null;
  last_name: string | null;
  title: string | null;
  emails: ContactChannel[];
  phones: ContactChannel[];
  tags: string[] | null;
  description: string | null;
  kvkk_consent: boolean;
  kvkk_consent_channel: string | null;
  kvkk_consent_source: string | null;
  iys_consent: { call: boolean; sms: boolean; email: boolean };
}

export function contactName(contact: { first_name: string | null; last_name: string | null }): string {
  return [contact.first_name, contact.last_name].filter(Boolean).join(" ").trim() || "—";
}

const duplicateSchema = recordDuplicateSchema({
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  customer_id: z.string().nullable(),
  emails: z.array(channelSchema).catch([]),
  phones: z.array(channelSchema).catch([]),
});
export type ContactDuplicate = z.infer<typeof duplicateSchema>;

/** Contacts likely the same as the values about to be saved (a same email or phone, or a similar name). */
export function findContactDuplicates(values: Partial<ContactValues>, exclude?: string): Promise<ContactDuplicate[]> {
  const { first_name, last_name, emails, phones } = values;
  return findDuplicates("find_contact_duplicates", { first_name, last_name, emails, phones }, duplicateSchema, exclude);
}

/** Everything held about a contact, as JSON (KVKK: an admin answers a data subject's request). */
export async function exportContactData(id: string): Promise<unknown> {
  return rpc("export_contact_data", { p_id: id }, z.looseObject({ data: z.unknown(), exported_at: z.string() }));
}

/** Erases a contact (anonymised; KVKK). */
export function useEraseContact() {
  const invalidate = useInvalidateRecords("contacts");
  return useMutation({
    mutationFn: (id: string) => rpc("erase_contact", { p_id: id }, z.looseObject({})),
    onSuccess: invalidate,
  });
}
