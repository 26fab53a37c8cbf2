import { Anchor, Badge, Group, Stack } from "@mantine/core";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router-dom";
import { useRecordDocumentsTab } from "@/components/documents/RecordDocuments.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { useDeleteRecords, useRecord } from "@/components/records/record-api.ts";
import { recordFailureKey } from "@/components/records/record-form.ts";
import { RecordDetailLayout } from "@/components/records/RecordDetailLayout.tsx";
import { RecordUnavailable } from "@/components/records/RecordUnavailable.tsx";
import { useRelatedTabs } from "@/components/records/RelatedRecords.tsx";
import { Timeline } from "@/components/records/Timeline.tsx";
import { CustomFieldsBlock } from "@/components/records/custom-fields/CustomFieldsBlock.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { customerSchema, type Customer } from "../api/customers.ts";
import { customerFields, type CustomerField } from "../utils/customer-fields.ts";
import { CustomerFormModal } from "../components/CustomerFormModal.tsx";
import { formatPhone } from "@/lib/phone.ts";
import { RecordFieldGrid, RecordFieldItem } from "@/components/records/RecordFields.tsx";

/**
 * One customer: its fields; its contacts, deals, quotes, contracts and tasks (each a list with
 * its count, and a new one started with the customer filled in); its documents; notes and history.
 */
export function CustomerDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const customer = useRecord("customers", "customer", id, customerSchema);
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.customers ?? {};
  const remove = useDeleteRecords("customers");
  const [editing, setEditing] = useState(false);
  const link = { column: "customer_id", id } as const;
  const related = useRelatedTabs([
    { module: "contacts", link },
    { module: "deals", link },
    { module: "quotes", link },
    { module: "contracts", link },
    { module: "tasks", link },
  ]);
  const documents = useRecordDocumentsTab("customers", id);

  if (!customer.isSuccess) return <RecordUnavailable query={customer} module="customers" />;
  const record = customer.data;

  const value = (field: CustomerField): ReactNode => {
    const raw = record[field];
    if (field === "kind") return t(`modules.customers.kinds.${record.kind}`);
    if (field === "status") return t(`modules.customers.statuses.${record.status}`);
    if (Array.isArray(raw)) return raw.length === 0 ? "—" : raw.join(", ");
    if (raw === null || raw === "") return "—";
    if (field === "email") return <Anchor href={`mailto:${raw}`}>{raw}</Anchor>;
    if (field === "phone") return <Anchor href={`tel:${raw}`}>{formatPhone(raw)}</Anchor>;
    return raw;
  };
  const fieldLabel = (field: string) =>
    (customerFields as readonly string[]).includes(field) || field === "owner_id"
      ? t(`modules.customers.fields.${field as CustomerField | "owner_id"}`)
      : field;

  return (
    <>
      <RecordDetailLayout
        record={{ module: "customers", ownerId: record.owner_id }}
        title={record.name}
        subtitle={
          <Group gap="xs">
            <Badge variant="outline" color="gray">{t(`modules.customers.kinds.${record.kind}`)}</Badge>
            <Badge variant="dot" color={record.status === "active" ? "green" : record.status === "lead" ? "blue" : "gray"}>
              {t(`modules.customers.statuses.${record.status}`)}
            </Badge>
          </Group>
        }
        back={{ to: "/customers", label: t("modules.customers.backToList") }}
        onEdit={allowed.edit !== undefined ? () => setEditing(true) : undefined}
        deleting={remove.isPending}
        onDelete={
          allowed.delete !== undefined
            ? () =>
                remove.mutate([record.id], {
                  onSuccess: () => {
                    notifySuccess(t("modules.customers.detail.deleted", { name: record.name }));
                    void navigate("/customers");
                  },
                  onError: (error) => notifyFailure(t("modules.customers.detail.deleteFailed"), t(recordFailureKey(error))),
                })
            : undefined
        }
        tabs={[
          {
            value: "info",
            label: t("modules.customers.detail.tabs.info"),
            content: (
              <Stack gap="lg">
                <RecordFieldGrid>
                  {customerFields.map((field) => (
                    <RecordFieldItem key={field} label={t(`modules.customers.fields.${field}`)}>
                      {value(field)}
                    </RecordFieldItem>
                  ))}
                  <RecordFieldItem label={t("modules.customers.detail.owner")}>
                    {record.owner_name ?? "—"}
                  </RecordFieldItem>
                  <RecordFieldItem label={t("modules.customers.detail.updatedAt")}>
                    {formatDateTime(record.updated_at, i18n.resolvedLanguage)}
                  </RecordFieldItem>
                </RecordFieldGrid>
                <CustomFieldsBlock module="customers" record={record} />
              </Stack>
            ),
          },
          ...related,
          ...(documents ? [documents] : []),
          {
            value: "timeline",
            label: t("modules.customers.detail.tabs.timeline"),
            content: (
              <Timeline
                module="customers"
                id={record.id}
                fieldLabel={fieldLabel}
                canAddNote={allowed.edit !== undefined}
                formatValue={(field, raw) => {
                  if (field === "kind" && (raw === "company" || raw === "person")) return t(`modules.customers.kinds.${raw}`);
                  if (field === "status" && (raw === "lead" || raw === "active" || raw === "passive")) {
                    return t(`modules.customers.statuses.${raw}`);
                  }
                  return null;
                }}
              />
            ),
          },
        ]}
      />
      {editing && <CustomerFormModal opened customer={record satisfies Customer} onClose={() => setEditing(false)} />}
    </>
  );
}
