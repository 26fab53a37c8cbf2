import { Alert, Anchor, Button, Group, List, Stack, Text } from "@mantine/core";
import { IconBan, IconRefresh } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router-dom";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { useDeleteRecords } from "@/components/records/record-api.ts";
import { recordFailureKey } from "@/components/records/record-form.ts";
import { RecordDetailLayout } from "@/components/records/RecordDetailLayout.tsx";
import { RecordUnavailable } from "@/components/records/RecordUnavailable.tsx";
import { RecordMailComposer } from "@/components/documents/RecordMailComposer.tsx";
import { useRelatedTabs } from "@/components/records/RelatedRecords.tsx";
import { Timeline } from "@/components/records/Timeline.tsx";
import { CustomFieldsBlock } from "@/components/records/custom-fields/CustomFieldsBlock.tsx";
import { formatCalendarDate, formatDateTime, formatMoney } from "@/lib/format.ts";
import { RpcError } from "@/lib/rpc.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { useContractDetails, useRenewContract, useTerminateContract, type ContractDetails, type ContractTerm } from "../api/contracts.ts";
import { contractFields, contractStatuses, contractTypes } from "../utils/contract-fields.ts";
import { ContractDocumentsSection } from "../components/ContractDocumentsSection.tsx";
import { contractPdfSource } from "../utils/contract-pdf.ts";
import { ContractFormModal } from "../components/ContractFormModal.tsx";
import { ContractStatusBadge } from "../components/ContractBits.tsx";
import { RenewContractModal } from "../components/RenewContractModal.tsx";
import { TerminateContractModal } from "../components/TerminateContractModal.tsx";
import { RecordFieldGrid, RecordFieldItem } from "@/components/records/RecordFields.tsx";

const actionCodes = ["already_renewed", "not_renewable", "not_terminable", "stale_record", "invalid_fields"] as const;

/** The text of a refused renewal or termination: the workflow's own codes, else the record kit's. */
function actionFailureKey(error: unknown) {
  const code = error instanceof RpcError ? actionCodes.find((known) => known === error.code) : undefined;
  return code ? (`modules.contracts.detail.errors.${code}` as const) : recordFailureKey(error);
}

/** Fields the timeline names: the form's, and those the workflow sets. */
const labelledFields = [...contractFields, "owner_id", "terminated_at", "termination_reason", "renewal_notified_at"] as const;

/** One contract: details, signatures, links, renewal chain, renew and terminate, notes and history, tasks, documents. */
export function ContractDetailPage() {
  const { t, i18n } = useTranslation();
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const session = useSignedInSession();
  const details = useContractDetails(id);
  const permissions = useMyPermissions();
  const allowed = permissions.data?.permissions.contracts ?? {};
  const remove = useDeleteRecords("contracts");
  const renew = useRenewContract();
  const terminate = useTerminateContract();
  const [editing, setEditing] = useState(false);
  const [renewing, setRenewing] = useState(false);
  const [terminating, setTerminating] = useState(false);
  // The contract's tasks are its deal's (or else its customer's): tasks link to those.
  const linked = details.data?.contract;
  const tasks = useRelatedTabs(
    linked?.deal_id
      ? [{ module: "tasks", link: { column: "deal_id", id: linked.deal_id }, newLinks: { customer_id: linked.customer_id, contact_id: linked.contact_id }, label: t("modules.contracts.detail.dealTasks") }]
      : linked?.customer_id
        ? [{ module: "tasks", link: { column: "customer_id", id: linked.customer_id }, newLinks: { contact_id: linked.contact_id }, label: t("modules.contracts.detail.customerTasks") }]
        : [],
  );

  if (!details.isSuccess) return <RecordUnavailable query={details} module="contracts" />;
  const { contract } = details.data;
  const language = i18n.resolvedLanguage;
  const date = (value: string | null) => (value ? formatCalendarDate(value, language) : "—");
  const mayEdit = allowed.edit === "all" || (allowed.edit === "own" && contract.owner_id === session.user.id);
  const locked = contract.locked === true;
  // A renewal waiting as a draft (or signed) is the next term: no second one.
  const renewalPending = details.data.next !== null && details.data.next.status !== "terminated";
  const canRenew =
    mayEdit && allowed.create !== undefined && (contract.status === "active" || contract.status === "expired") && contract.end_date !== null && !renewalPending;
  const canTerminate = mayEdit && (contract.status === "draft" || contract.status === "active");
  const actionFailed = (title: string) => (error: unknown) => notifyFailure(title, t(actionFailureKey(error)));
  const fieldLabel = (field: string) =>
    (labelledFields as readonly string[]).includes(field) ? t(`modules.contracts.fields.${field as (typeof labelledFields)[number]}`) : field;
  const formatValue = (field: string, raw: unknown): string | null => {
    if (field === "status" && typeof raw === "string" && (contractStatuses as readonly string[]).includes(raw)) {
      return t(`modules.contracts.statuses.${raw as (typeof contractStatuses)[number]}`);
    }
    if (field === "contract_type" && typeof raw === "string" && (contractTypes as readonly string[]).includes(raw)) {
      return t(`modules.contracts.types.${raw as (typeof contractTypes)[number]}`);
    }
    return null;
  };

  const items: [string, ReactNode][] = [
    [t("modules.contracts.fields.contract_number"), contract.contract_number ?? "—"],
    [t("modules.contracts.fields.contract_type"), t(`modules.contracts.types.${contract.contract_type}`)],
    [t("modules.contracts.fields.customer_id"), <RecordLink key="customer" to="customers" record={details.data.customer && { id: details.data.customer.id, label: details.data.customer.name }} />],
    [t("modules.contracts.fields.contact_id"), <RecordLink key="contact" to="contacts" record={details.data.contact && { id: details.data.contact.id, label: details.data.contact.name }} />],
    [t("modules.contracts.fields.deal_id"), <RecordLink key="deal" to="deals" record={details.data.deal && { id: details.data.deal.id, label: details.data.deal.title }} />],
    [
      t("modules.contracts.fields.quote_id"),
      <RecordLink key="quote" to="quotes" record={details.data.quote && { id: details.data.quote.id, label: details.data.quote.quote_number ?? "—" }} />,
    ],
    [t("modules.contracts.fields.start_date"), date(contract.start_date)],
    [t("modules.contracts.fields.end_date"), date(contract.end_date)],
    [t("modules.contracts.fields.value"), formatMoney(Number(contract.value), contract.currency, language)],
    [
      t("modules.contracts.detail.vatBasis"),
      contract.value_includes_vat
        ? t("modules.contracts.detail.vatIncluded")
        : contract.vat_amount !== null
          ? t("modules.contracts.detail.vatOnTop", {
              vat: formatMoney(contract.vat_amount as unknown as number, contract.currency, language),
              total: contract.total_with_vat ? formatMoney(contract.total_with_vat as unknown as number, contract.currency, language) : "—",
            })
          : t("modules.contracts.detail.vatExcluded"),
    ],
    ...(contract.withholding_amount
      ? [
          [
            t("modules.contracts.detail.withholding"),
            t(contract.withholding_rate ? "modules.contracts.detail.withholdingRated" : "modules.contracts.detail.withholdingAmount", {
              rate: contract.withholding_rate,
              amount: formatMoney(contract.withholding_amount as unknown as number, contract.currency, language),
              payable: contract.payable_total ? formatMoney(contract.payable_total as unknown as number, contract.currency, language) : "—",
            }),
          ] as [string, ReactNode],
        ]
      : []),
    [t("modules.contracts.fields.customer_signed_on"), date(contract.customer_signed_on)],
    [t("modules.contracts.fields.company_signed_on"), date(contract.company_signed_on)],
    [
      t("modules.contracts.fields.auto_renew"),
      contract.auto_renew
        ? t("modules.contracts.detail.autoRenewOn", { months: contract.renewal_term_months })
        : t("modules.contracts.detail.autoRenewOff"),
    ],
    [t("modules.contracts.fields.renewal_notice_days"), t("modules.contracts.detail.noticeDays", { count: contract.renewal_notice_days })],
    [t("modules.contracts.detail.owner"), contract.owner_name ?? "—"],
    [t("modules.contracts.fields.notes"), contract.notes ?? "—"],
  ];

  return (
    <>
      <RecordDetailLayout
        record={{ module: "contracts", ownerId: contract.owner_id }}
        title={contract.title}
        subtitle={
          <Group gap="xs">
            <ContractStatusBadge status={contract.status} />
            <Text size="sm" c="dimmed">
              {contract.contract_number}
            </Text>
            <Text size="sm">
              {contract.start_date && contract.end_date
                ? t("modules.contracts.detail.term", { start: date(contract.start_date), end: date(contract.end_date) })
                : t("modules.contracts.detail.noTerm")}
            </Text>
            <Text size="sm" fw={600}>
              {formatMoney(Number(contract.value), contract.currency, language)}
            </Text>
          </Group>
        }
        back={{ to: "/contracts", label: t("modules.contracts.backToList") }}
        extraActions={
          <>
            {mayEdit && (
              <RecordMailComposer
                source={contractPdfSource(details.data, t)}
                kinds={["contract", "contract_renewal"]}
                customerId={contract.customer_id}
                contactEmail={details.data.contact?.email ?? null}
              />
            )}
            {canRenew && (
              <Button variant="light" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => setRenewing(true)}>
                {t("modules.contracts.detail.renew")}
              </Button>
            )}
            {canTerminate && (
              <Button variant="light" color="red" leftSection={<IconBan size={16} aria-hidden />} onClick={() => setTerminating(true)}>
                {t("modules.contracts.detail.terminate")}
              </Button>
            )}
          </>
        }
        onEdit={allowed.edit !== undefined && !locked ? () => setEditing(true) : undefined}
        deleting={remove.isPending}
        onDelete={
          allowed.delete !== undefined
            ? () =>
                remove.mutate([contract.id], {
                  onSuccess: () => {
                    notifySuccess(t("modules.contracts.detail.deleted", { title: contract.title }));
                    void navigate("/contracts");
                  },
                  onError: (error) => notifyFailure(t("modules.contracts.detail.deleteFailed"), t(recordFailureKey(error))),
                })
            : undefined
        }
        tabs={[
          {
            value: "info",
            label: t("modules.contracts.detail.tabs.info"),
            content: (
              <Stack>
                {locked && (
                  <Alert color={contract.status === "terminated" ? "red" : "blue"}>
                    {contract.status === "terminated" && contract.terminated_at
                      ? t("modules.contracts.detail.terminatedNotice", {
                          date: formatDateTime(contract.terminated_at, language),
                          reason: contract.termination_reason ?? "—",
                        })
                      : t("modules.contracts.detail.lockedNotice", { status: t(`modules.contracts.statuses.${contract.status}`) })}
                  </Alert>
                )}
                <RecordFieldGrid>
                  {items.map(([label, value]) => (
                    <RecordFieldItem key={label} label={label}>
                      {value}
                    </RecordFieldItem>
                  ))}
                </RecordFieldGrid>
                <CustomFieldsBlock module="contracts" record={contract} />
              </Stack>
            ),
          },
          { value: "renewals", label: t("modules.contracts.detail.tabs.renewals"), content: <RenewalChain details={details.data} /> },
          {
            value: "timeline",
            label: t("modules.contracts.detail.tabs.timeline"),
            content: <Timeline module="contracts" id={contract.id} fieldLabel={fieldLabel} formatValue={formatValue} canAddNote={mayEdit} />,
          },
          ...tasks,
          { value: "documents", label: t("modules.contracts.detail.tabs.documents"), content: <ContractDocumentsSection details={details.data} /> },
        ]}
      />
      {editing && <ContractFormModal contract={contract} onClose={() => setEditing(false)} />}
      {renewing && (
        <RenewContractModal
          contract={contract}
          saving={renew.isPending}
          onCancel={() => setRenewing(false)}
          onConfirm={(terms) =>
            renew.mutate(
              { id: contract.id, updatedAt: contract.updated_at, terms },
              {
                onSuccess: (next) => {
                  setRenewing(false);
                  notifySuccess(t("modules.contracts.detail.renewed", { number: next.contract_number ?? "" }));
                  void navigate(`/contracts/${next.id}`);
                },
                onError: (error) => {
                  setRenewing(false);
                  actionFailed(t("modules.contracts.detail.renewFailed"))(error);
                },
              },
            )
          }
        />
      )}
      {terminating && (
        <TerminateContractModal
          title={contract.title}
          saving={terminate.isPending}
          onCancel={() => setTerminating(false)}
          onConfirm={(reason) =>
            terminate.mutate(
              { id: contract.id, updatedAt: contract.updated_at, reason },
              {
                onSuccess: () => {
                  setTerminating(false);
                  notifySuccess(t("modules.contracts.detail.terminated"));
                },
                onError: (error) => {
                  setTerminating(false);
                  actionFailed(t("modules.contracts.detail.terminateFailed"))(error);
                },
              },
            )
          }
        />
      )}
    </>
  );
}

/** A linked record of another module as a link to its page, or "—" when there is none (or it is not the caller's to see). */
function RecordLink({ to, record }: { to: string; record: { id: string; label: string } | null }) {
  if (!record) return "—";
  return (
    <Anchor component={Link} to={`/${to}/${record.id}`}>
      {record.label}
    </Anchor>
  );
}

/** The previous term this contract renews and the next term that renews it. */
function RenewalChain({ details }: { details: ContractDetails }) {
  const { t, i18n } = useTranslation();
  const term = (entry: ContractTerm) => (
    <Group gap="xs">
      <Anchor component={Link} to={`/contracts/${entry.id}`}>
        {entry.contract_number ?? "—"}
      </Anchor>
      <ContractStatusBadge status={entry.status} />
      {entry.start_date && entry.end_date && (
        <Text size="sm" c="dimmed">
          {t("modules.contracts.detail.term", {
            start: formatCalendarDate(entry.start_date, i18n.resolvedLanguage),
            end: formatCalendarDate(entry.end_date, i18n.resolvedLanguage),
          })}
        </Text>
      )}
    </Group>
  );
  return (
    <List listStyleType="none" spacing="md" aria-label={t("modules.contracts.detail.chainLabel")}>
      <List.Item>
        <Text size="sm" c="dimmed">
          {t("modules.contracts.detail.previous")}
        </Text>
        {details.previous ? term(details.previous) : <Text>{t("modules.contracts.detail.noPrevious")}</Text>}
      </List.Item>
      <List.Item>
        <Text size="sm" c="dimmed">
          {t("modules.contracts.detail.next")}
        </Text>
        {details.next ? term(details.next) : <Text>{t("modules.contracts.detail.noNext")}</Text>}
      </List.Item>
    </List>
  );
}
