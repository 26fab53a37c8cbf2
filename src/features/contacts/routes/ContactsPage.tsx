import { Badge, Button } from "@mantine/core";
import { IconAddressBook, IconPlus } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router-dom";
import { declaredColumn, type RecordListSpec } from "@/components/records/record-config.ts";
import { RecordListPage } from "@/components/records/RecordListPage.tsx";
import { linkColumn, recordPickerSources } from "@/components/records/record-links.ts";
import { readRecordLinks } from "@/components/records/related-records.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { contactName, contactRowSchema, type ContactRow } from "../api/contacts.ts";
import { ContactFormModal } from "../components/ContactFormModal.tsx";
import { useContactMerge } from "../components/useContactMerge.tsx";
import { formatPhone } from "@/lib/phone.ts";

/** The contacts module: the contacts the role may see, on the record kit (two selected may be merged). */
export function ContactsPage() {
  const { t } = useTranslation();
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.contacts ?? {};
  const [params, setParams] = useSearchParams();
  // ?new=1 opens the form (with ?customer_id=… and the other links when another record's page started it).
  const [creatingHere, setCreating] = useState(false);
  const creatingFromLink = params.get("new") === "1";
  const creating = (creatingHere || creatingFromLink) && allowed.create !== undefined;
  const links = readRecordLinks(params);
  const closeForm = () => {
    setCreating(false);
    if (creatingFromLink) setParams({}, { replace: true });
  };
  const merge = useContactMerge();

  const firstEmail = (row: ContactRow) => row.emails[0]?.value ?? null;
  const firstPhone = (row: ContactRow) => formatPhone(row.phones[0]?.value);
  const consentLabel = (row: ContactRow) => (row.kvkk_consent ? t("modules.contacts.list.yes") : t("modules.contacts.list.no"));
  const config: RecordListSpec<ContactRow> = {
    module: "contacts",
    row: contactRowSchema,
    columns: [
      // The title cell shows the whole name.
      { key: "last_name", label: t("modules.contacts.list.name"), sort: "last_name", exportValue: contactName },
      linkColumn<ContactRow>({ key: "customer_id", module: "customers" }),
      declaredColumn("title"),
      { key: "emails", label: t("modules.contacts.list.email"), render: (row) => firstEmail(row) ?? "—", exportValue: firstEmail },
      { key: "phones", label: t("modules.contacts.list.phone"), render: (row) => firstPhone(row) ?? "—", exportValue: firstPhone },
      {
        key: "kvkk_consent",
        label: t("modules.contacts.list.consent"),
        render: (row) => (
          <Badge variant="dot" color={row.kvkk_consent ? "green" : "gray"}>
            {consentLabel(row)}
          </Badge>
        ),
        exportValue: consentLabel,
      },
      { key: "owner_name", label: t("modules.contacts.list.owner") },
      { key: "updated_at", label: t("modules.contacts.list.updatedAt"), sort: "updated_at" },
      declaredColumn("first_name", { hidden: true }),
      declaredColumn("tags", { hidden: true }),
      { key: "created_at", label: t("records.list.createdAt"), sort: "created_at", hidden: true },
    ],
    filters: [
      { key: "customer_id", label: t("modules.contacts.fields.customer_id"), picker: recordPickerSources.customers },
      {
        key: "kvkk_consent",
        label: t("modules.contacts.list.consent"),
        options: [
          { value: "true", label: t("modules.contacts.list.yes") },
          { value: "false", label: t("modules.contacts.list.no") },
        ],
      },
    ],
    defaultSort: "last_name",
    defaultDescending: false,
    title: t("modules.contacts.title"),
    description: t("modules.contacts.description"),
    searchPlaceholder: t("modules.contacts.list.searchPlaceholder"),
    emptyTitle: t("modules.contacts.emptyTitle"),
    emptyDescription: t("modules.contacts.emptyDescription"),
    loadError: t("modules.contacts.list.loadError"),
    listLabel: t("modules.contacts.list.label"),
    totalText: (count, capped) => t(capped ? "modules.contacts.list.totalCapped" : "modules.contacts.list.total", { count }),
    noMatch: t("modules.contacts.list.noMatch"),
    icon: <IconAddressBook size={28} aria-hidden />,
    titleOf: contactName,
    detailPath: (row) => `/contacts/${row.id}`,
    actions: allowed.create !== undefined && (
      <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
        {t("modules.contacts.newContact")}
      </Button>
    ),
    merge,
  };

  return (
    <>
      <RecordListPage config={config} />
      {creating && <ContactFormModal customerId={links.customer_id} onClose={closeForm} />}
    </>
  );
}
