import { Anchor, Badge, EmptyState, Group, SimpleGrid, Stack, Table, Text } from "@mantine/core";
import { IconFolderOpen } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router-dom";
import { LoadError } from "@/components/LoadError.tsx";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { RecordDocuments } from "@/components/documents/RecordDocuments.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { useDeleteRecords, useRecord } from "@/components/records/record-api.ts";
import { recordFailureKey } from "@/components/records/record-form.ts";
import { RecordDetailLayout } from "@/components/records/RecordDetailLayout.tsx";
import { RecordUnavailable } from "@/components/records/RecordUnavailable.tsx";
import { Timeline } from "@/components/records/Timeline.tsx";
import { RelatedTasks } from "@/components/tasks/RelatedTasks.tsx";
import { formatDateTime } from "@/lib/format.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { customerFields, customerSchema, useCustomerContacts, type Customer, type CustomerField } from "../api/customers.ts";
import { CustomerFormModal } from "../components/CustomerFormModal.tsx";
import { formatPhone } from "@/lib/phone.ts";

/** Registered modules whose records link to a customer but have no tab of their own here yet. */
const laterModules = ["deals", "quotes", "contracts"] as const satisfies readonly ModuleKey[];

/** One customer: its fields, contacts, notes and history, and the modules still to come. */
export function CustomerDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const customer = useRecord("customers", "customer", id, customerSchema);
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.customers ?? {};
  const remove = useDeleteRecords("customers");
  const [editing, setEditing] = useState(false);

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
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" component="dl" m={0}>
                {customerFields.map((field) => (
                  <Stack key={field} gap={2}>
                    <Text component="dt" size="sm" c="dimmed">
                      {t(`modules.customers.fields.${field}`)}
                    </Text>
                    <Text component="dd" m={0} style={{ overflowWrap: "anywhere", whiteSpace: "pre-wrap" }}>
                      {value(field)}
                    </Text>
                  </Stack>
                ))}
                <Stack gap={2}>
                  <Text component="dt" size="sm" c="dimmed">
                    {t("modules.customers.detail.owner")}
                  </Text>
                  <Text component="dd" m={0}>
                    {record.owner_name ?? "—"}
                  </Text>
                </Stack>
                <Stack gap={2}>
                  <Text component="dt" size="sm" c="dimmed">
                    {t("modules.customers.detail.updatedAt")}
                  </Text>
                  <Text component="dd" m={0}>
                    {formatDateTime(record.updated_at, i18n.resolvedLanguage)}
                  </Text>
                </Stack>
              </SimpleGrid>
            ),
          },
          { value: "contacts", label: t("modules.customers.detail.tabs.contacts"), content: <Contacts customerId={record.id} /> },
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
          {
            value: "tasks",
            label: t("modules.customers.detail.tabs.tasks"),
            content: <RelatedTasks relation="customer_id" recordId={record.id} label={t("modules.customers.detail.tasksLabel")} />,
          },
          { value: "documents", label: t("modules.customers.detail.tabs.documents"), content: <RecordDocuments module="customers" recordId={record.id} /> },
          ...laterModules.map((module) => ({
            value: module,
            label: t(`modules.customers.detail.tabs.${module}`),
            content: (
              <EmptyState icon={<IconFolderOpen size={28} aria-hidden />} withIndicatorBackground py="lg">
                <EmptyState.Title order={2}>{t("records.detail.comingSoonTitle")}</EmptyState.Title>
                <EmptyState.Description>
                  {t("modules.customers.detail.comingSoon", { module: t(`modules.customers.detail.tabs.${module}`) })}
                </EmptyState.Description>
              </EmptyState>
            ),
          })),
        ]}
      />
      {editing && <CustomerFormModal opened customer={record satisfies Customer} onClose={() => setEditing(false)} />}
    </>
  );
}

function Contacts({ customerId }: { customerId: string }) {
  const { t } = useTranslation();
  const contacts = useCustomerContacts(customerId);
  if (contacts.isPending) return <LoadingScreen compact />;
  if (contacts.isError) return <LoadError title={t("modules.customers.detail.contactsError")} onRetry={() => void contacts.refetch()} />;
  if (contacts.data.length === 0) return <Text c="dimmed">{t("modules.customers.detail.noContacts")}</Text>;
  return (
    <Table.ScrollContainer minWidth={480} type="native" tabIndex={0}>
      <Table striped aria-label={t("modules.customers.detail.contactsLabel")}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t("modules.customers.detail.contactName")}</Table.Th>
            <Table.Th scope="col">{t("modules.customers.detail.contactTitle")}</Table.Th>
            <Table.Th scope="col">{t("modules.customers.detail.contactEmail")}</Table.Th>
            <Table.Th scope="col">{t("modules.customers.detail.contactPhone")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {contacts.data.map((contact) => (
            <Table.Tr key={contact.id}>
              <Table.Td>
                <Anchor component={Link} to={`/contacts/${contact.id}`}>
                  {[contact.first_name, contact.last_name].filter(Boolean).join(" ")}
                </Anchor>
              </Table.Td>
              <Table.Td>{contact.title ?? "—"}</Table.Td>
              <Table.Td>{contact.emails[0]?.value ?? "—"}</Table.Td>
              <Table.Td>{formatPhone(contact.phones[0]?.value) ?? "—"}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
