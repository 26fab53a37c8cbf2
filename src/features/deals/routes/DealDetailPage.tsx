import { Anchor, Badge, Group, List, Stack, Table, Text } from "@mantine/core";
import type { TFunction } from "i18next";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router-dom";
import { useRecordDocumentsTab } from "@/components/documents/RecordDocuments.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { useDeleteRecords } from "@/components/records/record-api.ts";
import { recordFailureKey } from "@/components/records/record-form.ts";
import { RecordDetailLayout } from "@/components/records/RecordDetailLayout.tsx";
import { RecordUnavailable } from "@/components/records/RecordUnavailable.tsx";
import { useRelatedTabs } from "@/components/records/RelatedRecords.tsx";
import { Timeline } from "@/components/records/Timeline.tsx";
import { CustomFieldsBlock } from "@/components/records/custom-fields/CustomFieldsBlock.tsx";
import { formatCalendarDate, formatDateTime, formatMoney } from "@/lib/format.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { useDealDetails, type DealDetails } from "../api/deals.ts";
import { dealFields, type DealField } from "../utils/deal-fields.ts";
import { DealFormModal } from "../components/DealFormModal.tsx";
import { RecordFieldGrid, RecordFieldItem } from "@/components/records/RecordFields.tsx";

/** "3 gün", "5 saat", "12 dakika": the largest whole unit. */
export function durationText(seconds: number, t: TFunction): string {
  if (seconds >= 86_400) return t("modules.deals.duration.days", { count: Math.floor(seconds / 86_400) });
  if (seconds >= 3_600) return t("modules.deals.duration.hours", { count: Math.floor(seconds / 3_600) });
  return t("modules.deals.duration.minutes", { count: Math.max(1, Math.floor(seconds / 60)) });
}

/**
 * One deal: its fields and contacts; its customer's contacts, its quotes, contracts and tasks
 * (each a list with its count; a new quote or contract starts with the deal, its customer and
 * its first contact filled in); stage history with the time in each stage; documents; notes and history.
 */
export function DealDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const details = useDealDetails(id);
  const settings = useOrganizationSettings();
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.deals ?? {};
  const remove = useDeleteRecords("deals");
  const [editing, setEditing] = useState(false);
  const loaded = details.data;
  const dealLink = { column: "deal_id", id } as const;
  const links = { customer_id: loaded?.record.customer_id, contact_id: loaded?.contacts[0]?.id, deal_id: id };
  const related = useRelatedTabs(
    loaded
      ? [
          ...(loaded.record.customer_id ? [{ module: "contacts" as const, link: { column: "customer_id" as const, id: loaded.record.customer_id } }] : []),
          { module: "quotes", link: dealLink, newLinks: links },
          { module: "contracts", link: dealLink, newLinks: links },
          { module: "tasks", link: dealLink, newLinks: { customer_id: links.customer_id, contact_id: links.contact_id } },
        ]
      : [],
  );
  const documents = useRecordDocumentsTab("deals", id);

  if (!details.isSuccess) return <RecordUnavailable query={details} module="deals" />;
  const { record, contacts } = details.data;
  const stages = settings.data?.deal_stages ?? [];
  const stage = stages.find((candidate) => candidate.key === record.stage);
  const stageName = (key: string | null) => (key ? (stages.find((candidate) => candidate.key === key)?.name ?? key) : "—");
  const language = i18n.resolvedLanguage;

  const value = (field: DealField | "closed_at"): ReactNode => {
    const raw = record[field];
    if (field === "customer_id") {
      return record.customer_id ? (
        <Anchor component={Link} to={`/customers/${record.customer_id}`}>
          {record.customer_name ?? "—"}
        </Anchor>
      ) : (
        "—"
      );
    }
    if (field === "amount") return formatMoney(record.amount, record.currency, language);
    if (field === "stage") return stageName(record.stage);
    if (field === "probability") return record.probability === null ? "—" : `%${record.probability}`;
    if (field === "expected_close_date") return record.expected_close_date ? formatCalendarDate(record.expected_close_date, language) : "—";
    if (field === "closed_at") return record.closed_at ? formatDateTime(record.closed_at, language) : "—";
    if (Array.isArray(raw)) return raw.length === 0 ? "—" : raw.join(", ");
    if (raw === null || raw === undefined || raw === "") return "—";
    return String(raw);
  };
  const shown = dealFields.filter((field) => field !== "currency" && (field !== "lost_reason" || stage?.outcome === "lost"));
  const fieldLabel = (field: string) =>
    (dealFields as readonly string[]).includes(field) || field === "owner_id" || field === "closed_at" || field === "contact_ids"
      ? t(`modules.deals.fields.${field as DealField | "owner_id" | "closed_at" | "contact_ids"}`)
      : field;

  return (
    <>
      <RecordDetailLayout
        record={{ module: "deals", ownerId: record.owner_id }}
        title={record.title}
        subtitle={
          <Group gap="xs">
            <Badge variant="dot" color={stage?.outcome === "won" ? "green" : stage?.outcome === "lost" ? "red" : "blue"}>
              {stageName(record.stage)}
            </Badge>
            <Text size="sm" fw={600}>
              {formatMoney(record.amount, record.currency, language)}
            </Text>
          </Group>
        }
        back={{ to: "/deals", label: t("modules.deals.backToList") }}
        onEdit={allowed.edit !== undefined ? () => setEditing(true) : undefined}
        deleting={remove.isPending}
        onDelete={
          allowed.delete !== undefined
            ? () =>
                remove.mutate([record.id], {
                  onSuccess: () => {
                    notifySuccess(t("modules.deals.detail.deleted", { title: record.title }));
                    void navigate("/deals");
                  },
                  onError: (error) => notifyFailure(t("modules.deals.detail.deleteFailed"), t(recordFailureKey(error))),
                })
            : undefined
        }
        tabs={[
          {
            value: "info",
            label: t("modules.deals.detail.tabs.info"),
            content: (
              <Stack gap="lg">
                <RecordFieldGrid>
                  {[...shown, "closed_at" as const].map((field) => (
                    <RecordFieldItem key={field} label={t(`modules.deals.fields.${field}`)}>
                      {value(field)}
                    </RecordFieldItem>
                  ))}
                  <RecordFieldItem label={t("modules.deals.detail.weighted")}>
                    {formatMoney((record.amount * (record.probability ?? stage?.probability ?? 0)) / 100, record.currency, language)}
                  </RecordFieldItem>
                  <RecordFieldItem label={t("modules.deals.fields.contact_ids")}>
                    {contacts.length === 0
                      ? t("modules.deals.detail.noContacts")
                      : contacts.map((contact, index) => (
                          <span key={contact.id}>
                            {index > 0 && ", "}
                            <Anchor component={Link} to={`/contacts/${contact.id}`}>
                              {[contact.first_name, contact.last_name].filter(Boolean).join(" ")}
                            </Anchor>
                          </span>
                        ))}
                  </RecordFieldItem>
                  <RecordFieldItem label={t("modules.deals.detail.owner")}>
                    {record.owner_name ?? "—"}
                  </RecordFieldItem>
                </RecordFieldGrid>
                <CustomFieldsBlock module="deals" record={record} />
              </Stack>
            ),
          },
          ...related,
          { value: "stages", label: t("modules.deals.detail.tabs.stages"), content: <StageHistory details={details.data} /> },
          {
            value: "timeline",
            label: t("modules.deals.detail.tabs.timeline"),
            content: (
              <Timeline
                module="deals"
                id={record.id}
                fieldLabel={fieldLabel}
                canAddNote={allowed.edit !== undefined}
                formatValue={(field, raw) => (field === "stage" && typeof raw === "string" ? stageName(raw) : null)}
              />
            ),
          },
          ...(documents ? [documents] : []),
        ]}
      />
      {editing && <DealFormModal deal={record} contactIds={contacts.map((contact) => contact.id)} onClose={() => setEditing(false)} />}
    </>
  );
}

function StageHistory({ details }: { details: DealDetails }) {
  const { t, i18n } = useTranslation();
  return (
    <Stack gap="lg">
      <Table.ScrollContainer minWidth={480} type="native">
        <Table striped aria-label={t("modules.deals.detail.historyLabel")}>
          <Table.Tbody>
            {details.stage_history.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>{formatDateTime(entry.changed_at, i18n.resolvedLanguage)}</Table.Td>
                <Table.Td>
                  {entry.from_stage === null
                    ? t("modules.deals.detail.created", { stage: entry.to_stage_name ?? entry.to_stage })
                    : t("modules.deals.detail.moved", {
                        from: entry.from_stage_name ?? entry.from_stage,
                        to: entry.to_stage_name ?? entry.to_stage,
                      })}
                </Table.Td>
                <Table.Td>{entry.changed_by_name ? t("modules.deals.detail.by", { name: entry.changed_by_name }) : "—"}</Table.Td>
                <Table.Td>{t("modules.deals.detail.stayed", { duration: durationText(entry.duration_seconds, t) })}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Stack gap={4}>
        <Text fw={600}>{t("modules.deals.detail.timeInStage")}</Text>
        <List>
          {details.time_in_stage.map((entry) => (
            <List.Item key={entry.stage}>
              {entry.name ?? entry.stage}: {durationText(entry.seconds, t)}
            </List.Item>
          ))}
        </List>
      </Stack>
    </Stack>
  );
}

