import { Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { recordBaseSchema, useRecord } from "@/components/records/record-api.ts";
import type { MergeField, RecordMergeConfig } from "@/components/records/record-merge.ts";
import { formatDateTime } from "@/lib/format.ts";
import { contactName, contactSchema, type Contact } from "../api/contacts.ts";
import { iysChannels } from "../utils/contact-fields.ts";
import { channelsLine, consentColumns } from "../utils/contact-merge.ts";

const customerNameSchema = recordBaseSchema.extend({ name: z.string() });

/**
 * How contacts merge (merge_contacts): names, title, customer, emails, phones, tags and
 * description from either contact; KVKK consent (with its channel, date and source) and the
 * İYS permissions stay the survivor's unless the other's are chosen.
 */
export function useContactMerge(): RecordMergeConfig<Contact> {
  const { t, i18n } = useTranslation();
  const empty = t("records.merge.empty");
  const label = (key: "first_name" | "last_name" | "title" | "customer_id" | "emails" | "phones" | "tags" | "description" | "iys_consent") =>
    t(`modules.contacts.fields.${key}`);
  const channels = (kind: "emails" | "phones"): MergeField<Contact> => ({
    key: kind,
    label: label(kind),
    show: (contact) => channelsLine(contact[kind], (value) => t(`modules.contacts.labels.${value}`)) ?? empty,
  });
  const granted = (yes: boolean) => (yes ? t("modules.contacts.detail.granted") : t("modules.contacts.detail.notGranted"));
  return {
    module: "contacts",
    schema: contactSchema,
    read: "get_contact",
    merge: "merge_contacts",
    fields: [
      { key: "first_name", label: label("first_name") },
      { key: "last_name", label: label("last_name") },
      { key: "title", label: label("title") },
      {
        key: "customer_id",
        label: label("customer_id"),
        show: (contact) => (contact.customer_id ? <CustomerName id={contact.customer_id} /> : empty),
      },
      channels("emails"),
      channels("phones"),
      { key: "tags", label: label("tags") },
      { key: "description", label: label("description") },
      {
        key: "kvkk_consent",
        label: t("modules.contacts.merge.consent"),
        columns: consentColumns,
        show: (contact) =>
          contact.kvkk_consent
            ? [
                granted(true),
                contact.kvkk_consent_channel && t(`modules.contacts.consentChannels.${contact.kvkk_consent_channel}`),
                contact.kvkk_consent_at && formatDateTime(contact.kvkk_consent_at, i18n.resolvedLanguage),
                contact.kvkk_consent_source,
              ]
                .filter(Boolean)
                .join(" · ")
            : granted(false),
      },
      {
        key: "iys_consent",
        label: label("iys_consent"),
        show: (contact) =>
          iysChannels.map((channel) => `${t(`modules.contacts.iys.${channel}`)}: ${granted(contact.iys_consent[channel])}`).join(" · "),
      },
    ],
    titleOf: contactName,
    texts: {
      title: t("modules.contacts.merge.title"),
      description: t("modules.contacts.merge.description"),
      loadError: t("modules.contacts.merge.loadError"),
      failed: t("modules.contacts.merge.failed"),
      merged: (name) => t("modules.contacts.merge.merged", { name }),
    },
  };
}

/** A customer's name, read when shown; a customer the user may not see says so. */
function CustomerName({ id }: { id: string }) {
  const { t } = useTranslation();
  const customer = useRecord("customers", "customer", id, customerNameSchema);
  if (customer.isSuccess) return customer.data.name;
  if (customer.isError) return t("modules.contacts.merge.unknownCustomer");
  return (
    <Text span c="dimmed" size="sm">
      {t("common.loading")}
    </Text>
  );
}
