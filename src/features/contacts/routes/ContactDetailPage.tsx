import { Anchor, Badge, Button, Group, Modal, Stack, Text } from "@mantine/core";
import { IconDownload, IconEraser } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { useRecordDocumentsTab } from "@/components/documents/RecordDocuments.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { useDeleteRecords, useRecord } from "@/components/records/record-api.ts";
import { recordFailureKey } from "@/components/records/record-form.ts";
import { RecordDetailLayout } from "@/components/records/RecordDetailLayout.tsx";
import { RecordUnavailable } from "@/components/records/RecordUnavailable.tsx";
import { LinkedRecordName, useRelatedTabs } from "@/components/records/RelatedRecords.tsx";
import { Timeline } from "@/components/records/Timeline.tsx";
import { CustomFieldsBlock } from "@/components/records/custom-fields/CustomFieldsBlock.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { contactName, contactSchema, exportContactData, useEraseContact, type ContactChannel } from "../api/contacts.ts";
import { contactFields } from "../utils/contact-fields.ts";
import { ContactFormModal } from "../components/ContactFormModal.tsx";
import { iysChannels } from "../utils/contact-fields.ts";
import { formatPhone } from "@/lib/phone.ts";
import { RecordFieldGrid, RecordFieldItem } from "@/components/records/RecordFields.tsx";

/**
 * One contact: its details and customer (by name), consent; the deals it is on (through the
 * deal's contacts), its quotes and tasks (each a list with its count, a new one started with
 * the contact and its customer);
 * documents, notes and history; an admin exports or erases its data (KVKK).
 */
export function ContactDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const contact = useRecord("contacts", "contact", id, contactSchema);
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.contacts ?? {};
  const isAdmin = permissions.data?.is_admin ?? false;
  const remove = useDeleteRecords("contacts");
  const erase = useEraseContact();
  const [editing, setEditing] = useState(false);
  const [erasing, setErasing] = useState(false);
  const customerId = contact.data?.customer_id ?? null;
  const contactLink = { column: "contact_id", id } as const;
  const links = { customer_id: customerId, contact_id: id };
  const related = useRelatedTabs(
    contact.data
      ? [
          { module: "deals", link: contactLink, newLinks: links },
          { module: "quotes", link: contactLink, newLinks: links },
          { module: "tasks", link: contactLink, newLinks: links },
        ]
      : [],
  );
  const documents = useRecordDocumentsTab("contacts", id);

  if (!contact.isSuccess) return <RecordUnavailable query={contact} module="contacts" />;
  const record = contact.data;
  const name = contactName(record);
  const channels = (entries: ContactChannel[], href: string): ReactNode =>
    entries.length === 0
      ? "—"
      : entries.map((entry) => (
          <Text key={`${entry.label}-${entry.value}`} size="sm">
            <Text span c="dimmed" size="sm">{t(`modules.contacts.labels.${entry.label}`)}: </Text>
            <Anchor href={`${href}${entry.value}`}>{href === "tel:" ? formatPhone(entry.value) : entry.value}</Anchor>
          </Text>
        ));
  const item = (label: string, value: ReactNode) => (
    <RecordFieldItem key={label} label={label}>
      {value}
    </RecordFieldItem>
  );
  const download = async () => {
    try {
      const data = await exportContactData(record.id);
      const url = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
      const link = document.createElement("a");
      link.href = url;
      link.download = `kisi-${record.id}.json`;
      link.click();
      URL.revokeObjectURL(url);
      notifySuccess(t("modules.contacts.detail.exported"));
    } catch (error) {
      notifyFailure(t("modules.contacts.detail.exportFailed"), t(recordFailureKey(error)));
    }
  };
  const fieldLabel = (field: string) =>
    (contactFields as readonly string[]).includes(field) || field === "owner_id" || field === "kvkk_consent_at"
      ? t(`modules.contacts.fields.${field as (typeof contactFields)[number] | "owner_id" | "kvkk_consent_at"}`)
      : field;

  return (
    <>
      <RecordDetailLayout
        record={{ module: "contacts", ownerId: record.owner_id }}
        title={name}
        subtitle={record.title ? <Text c="dimmed">{record.title}</Text> : undefined}
        back={{ to: "/contacts", label: t("modules.contacts.backToList") }}
        onEdit={allowed.edit !== undefined ? () => setEditing(true) : undefined}
        deleting={remove.isPending}
        onDelete={
          allowed.delete !== undefined
            ? () =>
                remove.mutate([record.id], {
                  onSuccess: () => {
                    notifySuccess(t("modules.contacts.detail.deleted", { name }));
                    void navigate("/contacts");
                  },
                  onError: (error) => notifyFailure(t("modules.contacts.detail.deleteFailed"), t(recordFailureKey(error))),
                })
            : undefined
        }
        extraActions={
          isAdmin && (
            <>
              <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => void download()}>
                {t("modules.contacts.detail.export")}
              </Button>
              <Button variant="default" color="red" leftSection={<IconEraser size={16} aria-hidden />} onClick={() => setErasing(true)}>
                {t("modules.contacts.detail.erase")}
              </Button>
            </>
          )
        }
        tabs={[
          {
            value: "info",
            label: t("modules.contacts.detail.tabs.info"),
            content: (
              <Stack gap="lg">
                <RecordFieldGrid>
                  {item(t("modules.contacts.fields.first_name"), record.first_name ?? "—")}
                  {item(t("modules.contacts.fields.last_name"), record.last_name ?? "—")}
                  {item(t("modules.contacts.fields.title"), record.title ?? "—")}
                  {item(
                    t("modules.contacts.fields.customer_id"),
                    <LinkedRecordName module="customers" entity="customer" id={record.customer_id} name={record.customer_name} />,
                  )}
                  {item(t("modules.contacts.fields.emails"), channels(record.emails, "mailto:"))}
                  {item(t("modules.contacts.fields.phones"), channels(record.phones, "tel:"))}
                  {item(t("modules.contacts.fields.tags"), record.tags.length > 0 ? record.tags.join(", ") : "—")}
                  {item(t("modules.contacts.fields.description"), record.description ?? "—")}
                  {item(
                    t("modules.contacts.fields.kvkk_consent"),
                    record.kvkk_consent
                      ? [
                          t("modules.contacts.detail.granted"),
                          record.kvkk_consent_channel && t(`modules.contacts.consentChannels.${record.kvkk_consent_channel}`),
                          record.kvkk_consent_at && formatDateTime(record.kvkk_consent_at, i18n.resolvedLanguage),
                          record.kvkk_consent_source,
                        ]
                          .filter(Boolean)
                          .join(" · ")
                      : t("modules.contacts.detail.notGranted"),
                  )}
                  {item(
                    t("modules.contacts.fields.iys_consent"),
                    <Group gap={4} component="span">
                      {iysChannels.map((channel) => (
                        <Badge key={channel} variant="dot" color={record.iys_consent[channel] ? "green" : "gray"} component="span">
                          {t(`modules.contacts.iys.${channel}`)}:{" "}
                          {record.iys_consent[channel] ? t("modules.contacts.detail.granted") : t("modules.contacts.detail.notGranted")}
                        </Badge>
                      ))}
                    </Group>,
                  )}
                  {item(t("modules.contacts.fields.owner_id"), record.owner_name ?? "—")}
                </RecordFieldGrid>
                <CustomFieldsBlock module="contacts" record={record} />
              </Stack>
            ),
          },
          {
            value: "timeline",
            label: t("modules.contacts.detail.tabs.timeline"),
            content: <Timeline module="contacts" id={record.id} fieldLabel={fieldLabel} canAddNote={allowed.edit !== undefined} />,
          },
          ...related,
          ...(documents ? [documents] : []),
        ]}
      />
      {editing && <ContactFormModal contact={record} onClose={() => setEditing(false)} />}
      <Modal opened={erasing} onClose={() => setErasing(false)} title={t("modules.contacts.detail.eraseTitle")}
        closeButtonProps={{ "aria-label": t("records.form.close") }}>
        <Stack>
          <Text>{t("modules.contacts.detail.eraseConfirm", { name })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setErasing(false)}>
              {t("modules.contacts.detail.cancel")}
            </Button>
            <Button
              color="red"
              loading={erase.isPending}
              onClick={() =>
                erase.mutate(record.id, {
                  onSuccess: () => {
                    notifySuccess(t("modules.contacts.detail.erased"));
                    setErasing(false);
                    void navigate("/contacts");
                  },
                  onError: (error) => notifyFailure(t("modules.contacts.detail.eraseFailed"), t(recordFailureKey(error))),
                })
              }
            >
              {t("modules.contacts.detail.erase")}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

