/** The contact form: values on screen, the browser's checks (same codes as private.prepare_contact), the values sent. */
import { z } from "zod";
import { fieldErrorKey } from "@/components/records/record-form.ts";
import { isValidEmail, normalizePhone } from "@/lib/turkish-identifiers.ts";
import type { Contact, ContactValues } from "../api/contacts.ts";
import { channelLabels, consentChannels } from "./contact-fields.ts";

const channel = z.object({ label: z.enum(channelLabels), value: z.string() });

export const contactFormSchema = z
  .object({
    customer_id: z.string().nullable(),
    first_name: z.string().max(100, fieldErrorKey("too_long")),
    last_name: z.string().max(100, fieldErrorKey("too_long")),
    title: z.string(),
    emails: z.array(channel).max(10),
    phones: z.array(channel).max(10),
    tags: z.string(),
    description: z.string(),
    kvkk_consent: z.boolean(),
    kvkk_consent_channel: z.union([z.enum(consentChannels), z.literal("")]),
    kvkk_consent_source: z.string().max(200, fieldErrorKey("too_long")),
    iys_consent: z.object({ call: z.boolean(), sms: z.boolean(), email: z.boolean() }),
  })
  .superRefine((values, context) => {
    if (values.first_name.trim() === "" && values.last_name.trim() === "") {
      context.addIssue({ code: "custom", path: ["first_name"], message: fieldErrorKey("required") });
    }
    values.emails.forEach((entry, index) => {
      if (entry.value.trim() !== "" && !isValidEmail(entry.value.trim())) {
        context.addIssue({ code: "custom", path: ["emails", index, "value"], message: fieldErrorKey("invalid_email") });
      }
    });
    values.phones.forEach((entry, index) => {
      if (entry.value.trim() !== "" && normalizePhone(entry.value) === null) {
        context.addIssue({ code: "custom", path: ["phones", index, "value"], message: fieldErrorKey("invalid_phone") });
      }
    });
    if (values.kvkk_consent && values.kvkk_consent_channel === "") {
      context.addIssue({ code: "custom", path: ["kvkk_consent_channel"], message: fieldErrorKey("required") });
    }
  });
export type ContactFormValues = z.infer<typeof contactFormSchema>;

export const emptyContactForm: ContactFormValues = {
  customer_id: null,
  first_name: "",
  last_name: "",
  title: "",
  emails: [{ label: "work", value: "" }],
  phones: [{ label: "mobile", value: "" }],
  tags: "",
  description: "",
  kvkk_consent: false,
  kvkk_consent_channel: "",
  kvkk_consent_source: "",
  iys_consent: { call: false, sms: false, email: false },
};

export function contactFormOf(contact: Contact): ContactFormValues {
  return {
    customer_id: contact.customer_id,
    first_name: contact.first_name ?? "",
    last_name: contact.last_name ?? "",
    title: contact.title ?? "",
    emails: contact.emails.length > 0 ? contact.emails : emptyContactForm.emails,
    phones: contact.phones.length > 0 ? contact.phones : emptyContactForm.phones,
    tags: contact.tags.join(", "),
    description: contact.description ?? "",
    kvkk_consent: contact.kvkk_consent,
    kvkk_consent_channel: contact.kvkk_consent_channel ?? "",
    kvkk_consent_source: contact.kvkk_consent_source ?? "",
    iys_consent: contact.iys_consent,
  };
}

const orNull = (value: string) => (value.trim() === "" ? null : value.trim());

/** What the database is sent: blank entries dropped, phones normalised, consent details only with consent. */
export function contactValuesOf(form: ContactFormValues): ContactValues {
  const tags = form.tags
    .split(",")
    .map((tag) => tag.trim())
    .filter((tag) => tag !== "");
  return {
    customer_id: form.customer_id,
    first_name: orNull(form.first_name),
    last_name: orNull(form.last_name),
    title: orNull(form.title),
    emails: form.emails.filter((entry) => entry.value.trim() !== "").map((entry) => ({ label: entry.label, value: entry.value.trim() })),
    phones: form.phones
      .filter((entry) => entry.value.trim() !== "")
      .map((entry) => ({ label: entry.label, value: normalizePhone(entry.value) ?? entry.value.trim() })),
    tags: tags.length === 0 ? null : tags,
    description: orNull(form.description),
    kvkk_consent: form.kvkk_consent,
    kvkk_consent_channel: form.kvkk_consent ? orNull(form.kvkk_consent_channel) : null,
    kvkk_consent_source: form.kvkk_consent ? orNull(form.kvkk_consent_source) : null,
    iys_consent: form.iys_consent,
  };
}
