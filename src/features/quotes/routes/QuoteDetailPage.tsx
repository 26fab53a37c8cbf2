import { Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { IconArrowLeft, IconCheck, IconCopy, IconFileCertificate, IconLock, IconSend, IconX } from "@tabler/icons-react";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useParams, useSearchParams } from "react-router-dom";
import { z } from "zod";
import { LoadingScreen } from "@/components/LoadingScreen.tsx";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { recordBaseSchema, useDeleteRecords, useRecord } from "@/components/records/record-api.ts";
import { RecordDetailLayout } from "@/components/records/RecordDetailLayout.tsx";
import { RecordUnavailable } from "@/components/records/RecordUnavailable.tsx";
import { readRecordLinks } from "@/components/records/related-records.ts";
import { RecordMailComposer } from "@/components/documents/RecordMailComposer.tsx";
import { useRelatedTabs } from "@/components/records/RelatedRecords.tsx";
import { Timeline } from "@/components/records/Timeline.tsx";
import { CustomFieldsBlock } from "@/components/records/custom-fields/CustomFieldsBlock.tsx";
import { CustomValuesModal } from "@/components/records/custom-fields/CustomFieldsFormModal.tsx";
import { RpcError } from "@/lib/rpc.ts";
import { formatCalendarDate, formatDateTime } from "@/lib/format.ts";
import { useMyPermissions } from "@/modules/permissions.ts";
import { ModuleDenied } from "@/modules/ModuleDenied.tsx";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { wallTime } from "@/lib/zoned-time.ts";
import { usableTimeZone } from "@/lib/zoned-time.ts";
import {
  discountTypes,
  quoteStatuses,
  useAcceptQuote,
  useCreateContractFromQuote,
  useQuoteDetails,
  useRejectQuote,
  useReviseQuote,
  useSendQuote,
  type DiscountType,
  type QuoteDetails,
  type QuoteStatus,
} from "../api/quotes.ts";
import { QuoteDocumentsSection } from "../components/QuoteDocumentsSection.tsx";
import { quotePdfSource } from "../utils/quote-pdf.ts";
import { quoteFailureKey, QuoteEditor } from "../components/QuoteEditor.tsx";
import { QuoteStatusBadge } from "../components/QuoteStatusBadge.tsx";
import { QuoteTotals } from "../components/QuoteTotals.tsx";
import { AcceptQuoteModal, RejectQuoteModal } from "../components/QuoteWorkflowModals.tsx";
import { formatAmount, formatDecimal, formatRate } from "../utils/quote-format.ts";
import { canonicalRate, emptyQuoteForm, quoteFormOf, type QuoteForm } from "../utils/quote-form.ts";

/**
 * /quotes/new (the editor, prefilled from ?customer_id=, ?contact_id= and ?deal_id=: another
 * record's page starts a quote there, src/components/records/related-records.ts), /quotes/<id> (the quote
 * page) and /quotes/<id>?edit=1 (the editor of a draft).
 */
export function QuoteDetailPage() {
  const { id = "" } = useParams();
  const [params] = useSearchParams();
  if (id === "new") {
    const links = readRecordLinks(params);
    return <NewQuote customerId={links.customer_id ?? null} contactId={links.contact_id ?? null} dealId={links.deal_id ?? null} />;
  }
  return params.get("edit") ? <EditQuote key={id} id={id} /> : <QuoteView key={id} id={id} />;
}

function EditorFrame({ title, back, children }: { title: string; back: { to: string; label: string }; children: ReactNode }) {
  return (
    <Stack gap="lg">
      <Group>
        <Button component={Link} to={back.to} variant="subtle" leftSection={<IconArrowLeft size={16} aria-hidden />}>
          {back.label}
        </Button>
      </Group>
      <Title order={1} style={{ overflowWrap: "anywhere" }}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}

const dealSchema = recordBaseSchema.extend({ customer_id: z.string().nullable() });

/** Today's calendar date in the organization's time zone. */
function useToday(): string {
  const settings = useOrganizationSettings();
  const wall = wallTime(new Date(), usableTimeZone(settings.data?.time_zone));
  return `${wall.year}-${String(wall.month).padStart(2, "0")}-${String(wall.day).padStart(2, "0")}`;
}

function NewQuote({ customerId, contactId, dealId }: { customerId: string | null; contactId: string | null; dealId: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const settings = useOrganizationSettings();
  const permissions = useMyPermissions();
  const today = useToday();
  // A quote made from a deal's page also takes the deal's customer.
  const deal = useRecord("deals", "deal", dealId ?? "", dealSchema, dealId !== null && customerId === null);
  if (permissions.data && permissions.data.permissions.quotes?.create === undefined) return <ModuleDenied module="quotes" />;
  if (!settings.data || !permissions.data || (dealId !== null && customerId === null && deal.isPending)) return <LoadingScreen />;
  const initial = emptyQuoteForm({
    today,
    validityDays: settings.data.quote_validity_days,
    currency: settings.data.default_currency,
    vatRate: canonicalRate(String(settings.data.default_vat_rate)),
    customerId: customerId ?? deal.data?.customer_id ?? null,
    contactId,
    dealId,
  });
  return (
    <EditorFrame title={t("modules.quotes.form.createTitle")} back={{ to: "/quotes", label: t("modules.quotes.backToList") }}>
      <QuoteEditor
        initial={initial}
        onSaved={(saved) => void navigate(`/quotes/${saved.id}`, { replace: true })}
        onCancel={() => void navigate("/quotes")}
      />
    </EditorFrame>
  );
}

function EditQuote({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const details = useQuoteDetails(id);
  const [form, setForm] = useState<{ version: number; initial: QuoteForm } | null>(null);
  if (!details.isSuccess) return <RecordUnavailable query={details} module="quotes" />;
  const { quote } = details.data;
  const current = form ?? { version: 0, initial: quoteFormOf(details.data, i18n.resolvedLanguage) };
  const number = t("modules.quotes.numberWithRevision", { number: quote.quote_number ?? "", revision: quote.revision });
  const view = `/quotes/${id}`;
  // A quote sent (or revised) meanwhile is no longer written here: its page says why.
  if (quote.locked) return <Navigate to={view} replace />;
  return (
    <EditorFrame title={t("modules.quotes.form.editTitle", { number })} back={{ to: view, label: number }}>
      <QuoteEditor
        key={current.version}
        initial={current.initial}
        quote={quote}
        onSaved={() => void navigate(view, { replace: true })}
        onCancel={() => void navigate(view)}
        onReload={async () => (await details.refetch()).data}
        onReset={(latest) => setForm({ version: current.version + 1, initial: quoteFormOf(latest, i18n.resolvedLanguage) })}
      />
    </EditorFrame>
  );
}

type Dialog = "accept" | "reject" | "contractFields" | null;

function QuoteView({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const navigate = useNavigate();
  const session = useSignedInSession();
  const details = useQuoteDetails(id);
  const permissions = useMyPermissions();
  const remove = useDeleteRecords("quotes");
  const send = useSendQuote();
  const accept = useAcceptQuote();
  const reject = useRejectQuote();
  const revise = useReviseQuote();
  const toContract = useCreateContractFromQuote();
  const [dialog, setDialog] = useState<Dialog>(null);
  // The quote's tasks are its deal's (or else its customer's): tasks link to those.
  const header = details.data?.quote;
  const tasks = useRelatedTabs(
    header?.deal_id
      ? [{ module: "tasks", link: { column: "deal_id", id: header.deal_id }, newLinks: { customer_id: header.customer_id, contact_id: header.contact_id }, label: t("modules.quotes.detail.tasksOfDeal") }]
      : header?.customer_id
        ? [{ module: "tasks", link: { column: "customer_id", id: header.customer_id }, newLinks: { contact_id: header.contact_id }, label: t("modules.quotes.detail.tasksOfCustomer") }]
        : [],
  );

  if (!details.isSuccess) return <RecordUnavailable query={details} module="quotes" />;
  const { quote, totals, customer, contact, deal } = details.data;
  const allowed = permissions.data?.permissions.quotes ?? {};
  const mine = quote.owner_id === session.user.id;
  const may = (scope: "own" | "all" | undefined) => scope === "all" || (scope === "own" && mine);
  const canEdit = may(allowed.edit);
  const current = !quote.superseded_by;
  const canCreateContract = permissions.data?.permissions.contracts?.create !== undefined;
  const number = quote.quote_number ?? t("modules.quotes.untitled");
  const title = t("modules.quotes.numberWithRevision", { number, revision: quote.revision });
  const failed = (error: unknown) => notifyFailure(t("modules.quotes.actions.failed"), t(quoteFailureKey(error)));
  const contractCreated = (created: { id: string }) => {
    notifySuccess(t("modules.quotes.actions.contractCreated"));
    void navigate(`/contracts/${created.id}`);
  };
  const done = (message: string) => () => {
    setDialog(null);
    notifySuccess(message);
  };
  const busy = send.isPending || accept.isPending || reject.isPending || revise.isPending || toContract.isPending;

  const workflow = (
    <>
      {canEdit && current && quote.status === "draft" && (
        <RecordMailComposer
          source={quotePdfSource(details.data, t)}
          kinds={["quote"]}
          customerId={quote.customer_id}
          contactEmail={contact?.email ?? null}
          updatedAt={quote.updated_at}
        />
      )}
      {canEdit && current && quote.status === "draft" && (
        <Button variant="default" leftSection={<IconSend size={16} aria-hidden />} loading={send.isPending} disabled={busy}
          onClick={() => send.mutate({ id, updatedAt: quote.updated_at }, { onSuccess: done(t("modules.quotes.actions.sent")), onError: failed })}>
          {t("modules.quotes.actions.send")}
        </Button>
      )}
      {canEdit && current && quote.status === "sent" && (
        <>
          <Button variant="default" leftSection={<IconCheck size={16} color="var(--mantine-color-green-8)" aria-hidden />} disabled={busy} onClick={() => setDialog("accept")}>
            {t("modules.quotes.actions.accept")}
          </Button>
          <Button variant="default" leftSection={<IconX size={16} color="var(--mantine-color-red-8)" aria-hidden />} disabled={busy} onClick={() => setDialog("reject")}>
            {t("modules.quotes.actions.reject")}
          </Button>
        </>
      )}
      {canEdit && current && allowed.create !== undefined && ["sent", "rejected", "expired"].includes(quote.status) && (
        <Button variant="default" leftSection={<IconCopy size={16} aria-hidden />} loading={revise.isPending} disabled={busy}
          onClick={() =>
            revise.mutate(id, {
              onSuccess: (created) => {
                notifySuccess(t("modules.quotes.actions.revised"));
                void navigate(`/quotes/${created.id}?edit=1`);
              },
              onError: failed,
            })
          }>
          {t("modules.quotes.actions.revise")}
        </Button>
      )}
      {canCreateContract && (quote.status === "accepted" || quote.status === "sent") && (
        <Button variant="default" leftSection={<IconFileCertificate size={16} aria-hidden />} loading={toContract.isPending} disabled={busy}
          onClick={() =>
            toContract.mutate({ quoteId: id }, {
              onSuccess: contractCreated,
              // Contracts with required custom fields a quote cannot fill: they are asked for.
              onError: (error) => (customFieldsRefused(error) ? setDialog("contractFields") : failed(error)),
            })
          }>
          {t("modules.quotes.actions.toContract")}
        </Button>
      )}
    </>
  );

  const field = (label: string, value: ReactNode) => (
    <Stack gap={2}>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" m={0} style={{ overflowWrap: "anywhere", whiteSpace: "pre-wrap" }}>
        {value === null || value === undefined || value === "" ? "—" : value}
      </Text>
    </Stack>
  );
  const date = (value: string | null | undefined) => (value ? formatCalendarDate(value, language) : null);
  const rateDate = date(quote.exchange_rate_date) ?? "—";
  const rateText =
    quote.currency === "TRY" || !quote.exchange_rate
      ? null
      : t(quote.locked ? "modules.quotes.detail.rateFrozen" : "modules.quotes.detail.rate", { rate: formatDecimal(quote.exchange_rate, language, 6), date: rateDate });
  const discount =
    quote.document_discount_value && quote.document_discount_value !== "0"
      ? quote.document_discount_type === "percent"
        ? formatRate(quote.document_discount_value, language)
        : formatAmount(quote.document_discount_value, quote.currency, language)
      : null;

  const overview = (
    <Stack gap="lg">
      {quote.locked && (
        <Alert
          color="orange"
          icon={<IconLock size={18} aria-hidden />}
          title={t("modules.quotes.detail.lockedTitle")}
          role="status"
          // Mantine's orange title on the light background is below AA contrast.
          styles={{ title: { color: "var(--mantine-color-text)" } }}
        >
          {t("modules.quotes.detail.locked")}
        </Alert>
      )}
      {quote.status === "rejected" && quote.rejection_reason && (
        <Alert color="red" role="status">
          {t("modules.quotes.detail.rejectionReason", { reason: quote.rejection_reason })}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" component="dl" m={0}>
        {field(
          t("modules.quotes.detail.customer"),
          customer ? (
            <Anchor component={Link} to={`/customers/${customer.id}`}>
              {customer.name}
            </Anchor>
          ) : null,
        )}
        {field(
          t("modules.quotes.detail.contact"),
          contact ? (
            <Anchor component={Link} to={`/contacts/${contact.id}`}>
              {contact.name}
            </Anchor>
          ) : null,
        )}
        {field(
          t("modules.quotes.detail.deal"),
          deal ? (
            <Anchor component={Link} to={`/deals/${deal.id}`}>
              {deal.title}
            </Anchor>
          ) : null,
        )}
        {field(t("modules.quotes.fields.quote_date"), date(quote.quote_date))}
        {field(t("modules.quotes.fields.valid_until"), date(quote.valid_until))}
        {field(t("modules.quotes.fields.currency"), quote.currency)}
        {rateText && field(t("modules.quotes.fields.exchange_rate"), rateText)}
        {field(t("modules.quotes.fields.prices_include_vat"), t(quote.prices_include_vat ? "common.yes" : "common.no"))}
        {field(t("modules.quotes.fields.document_discount_value"), discount)}
        {field(t("modules.quotes.detail.owner"), quote.owner_name)}
        {quote.sent_at && field(t("modules.quotes.fields.sent_at"), formatDateTime(quote.sent_at, language))}
        {quote.accepted_at && field(t("modules.quotes.fields.accepted_at"), formatDateTime(quote.accepted_at, language))}
        {quote.rejected_at && field(t("modules.quotes.fields.rejected_at"), formatDateTime(quote.rejected_at, language))}
      </SimpleGrid>
      <CustomFieldsBlock module="quotes" record={quote} />
      <QuoteItemsTable details={details.data} />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="md" component="dl" m={0}>
          {field(t("modules.quotes.fields.payment_terms"), quote.payment_terms)}
          {field(t("modules.quotes.fields.notes"), quote.notes)}
        </Stack>
        <QuoteTotals totals={totals} currency={quote.currency} />
      </SimpleGrid>
    </Stack>
  );

  return (
    <>
      <RecordDetailLayout
        record={{ module: "quotes", ownerId: quote.owner_id }}
        title={title}
        subtitle={
          <Group gap="xs">
            <QuoteStatusBadge status={quote.status} />
            <Text size="sm" fw={600}>
              {formatAmount(totals.grand_total, quote.currency, language)}
            </Text>
            {quote.locked && (
              <Badge variant="outline" color="gray" leftSection={<IconLock size={12} aria-hidden />}>
                {t("modules.quotes.detail.lockedTitle")}
              </Badge>
            )}
          </Group>
        }
        back={{ to: "/quotes", label: t("modules.quotes.backToList") }}
        extraActions={workflow}
        onEdit={allowed.edit !== undefined && !quote.locked ? () => void navigate(`/quotes/${id}?edit=1`) : undefined}
        deleting={remove.isPending}
        onDelete={
          allowed.delete !== undefined
            ? () =>
                remove.mutate([id], {
                  onSuccess: () => {
                    notifySuccess(t("modules.quotes.detail.deleted", { number: title }));
                    void navigate("/quotes");
                  },
                  onError: (error) => notifyFailure(t("modules.quotes.detail.deleteFailed"), t(quoteFailureKey(error))),
                })
            : undefined
        }
        tabs={[
          { value: "overview", label: t("modules.quotes.detail.tabs.overview"), content: overview },
          { value: "revisions", label: t("modules.quotes.detail.tabs.revisions"), content: <Revisions details={details.data} /> },
          {
            value: "timeline",
            label: t("modules.quotes.detail.tabs.timeline"),
            content: (
              <Timeline
                module="quotes"
                id={id}
                canAddNote={canEdit}
                fieldLabel={(name) => {
                  const known = ["quote_number", "revision", "customer_id", "contact_id", "deal_id", "status", "quote_date", "valid_until", "currency", "exchange_rate", "exchange_rate_date", "prices_include_vat", "payment_terms", "notes", "document_discount_type", "document_discount_value", "grand_total", "grand_total_try", "owner_id", "sent_at", "accepted_at", "rejected_at", "rejection_reason"] as const;
                  const match = known.find((candidate) => candidate === name);
                  return match ? t(`modules.quotes.fields.${match}`) : name;
                }}
                formatValue={(name, raw) => {
                  if (name === "status" && quoteStatuses.some((status) => status === raw)) return t(`modules.quotes.status.${raw as QuoteStatus}`);
                  if (name === "document_discount_type" && discountTypes.some((type) => type === raw)) return t(`modules.quotes.discount.${raw as DiscountType}`);
                  return null;
                }}
              />
            ),
          },
          ...tasks,
          { value: "documents", label: t("modules.quotes.detail.tabs.documents"), content: <QuoteDocumentsSection details={details.data} /> },
        ]}
      />
      {dialog === "accept" && (
        <AcceptQuoteModal
          number={title}
          hasDeal={quote.deal_id !== null}
          saving={accept.isPending}
          onCancel={() => setDialog(null)}
          onConfirm={(markDealWon) =>
            accept.mutate({ id, updatedAt: quote.updated_at, markDealWon }, { onSuccess: done(t("modules.quotes.actions.accepted")), onError: failed })
          }
        />
      )}
      {dialog === "contractFields" && (
        <CustomValuesModal
          module="contracts"
          title={t("modules.quotes.contractFields.title")}
          description={t("modules.quotes.contractFields.description")}
          submitLabel={t("modules.quotes.actions.toContract")}
          submit={(values) => toContract.mutateAsync({ quoteId: id, values })}
          onSaved={contractCreated}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog === "reject" && (
        <RejectQuoteModal
          saving={reject.isPending}
          onCancel={() => setDialog(null)}
          onConfirm={(reason) => reject.mutate({ id, updatedAt: quote.updated_at, reason }, { onSuccess: done(t("modules.quotes.actions.rejected")), onError: failed })}
        />
      )}
    </>
  );
}

/** A refusal that names only custom fields (cf_…): the contract's own fields, which the caller can give. */
function customFieldsRefused(error: unknown): boolean {
  if (!(error instanceof RpcError) || error.code !== "invalid_fields") return false;
  const fields = Object.keys((error.details.fields as Record<string, unknown> | undefined) ?? {});
  return fields.length > 0 && fields.every((key) => key.startsWith("cf_"));
}

/** The saved lines with the database's per-line amounts. */
function QuoteItemsTable({ details }: { details: QuoteDetails }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const { quote, items } = details;
  const money = (value: string | null | undefined) => formatAmount(value, quote.currency, language);
  const numeric = { ta: "right" as const, style: { whiteSpace: "nowrap" as const, fontVariantNumeric: "tabular-nums" } };
  return (
    <Paper withBorder component="section" aria-labelledby="quote-items-title">
      <Title order={2} size="h4" id="quote-items-title" p="sm" pb={0}>
        {t("modules.quotes.lines.title")}
      </Title>
      <Table.ScrollContainer minWidth={820} type="native">
        <Table striped aria-labelledby="quote-items-title" data-testid="quote-items">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t("modules.quotes.lines.position")}</Table.Th>
              <Table.Th scope="col">{t("modules.quotes.lines.description")}</Table.Th>
              <Table.Th scope="col" ta="right">{t("modules.quotes.lines.quantity")}</Table.Th>
              <Table.Th scope="col" ta="right">{t("modules.quotes.lines.unit_price")}</Table.Th>
              <Table.Th scope="col" ta="right">{t("modules.quotes.lines.discount")}</Table.Th>
              <Table.Th scope="col">{t("modules.quotes.lines.vat_rate")}</Table.Th>
              <Table.Th scope="col" ta="right">{t("modules.quotes.lines.line_net")}</Table.Th>
              <Table.Th scope="col" ta="right">{t("modules.quotes.lines.line_vat")}</Table.Th>
              <Table.Th scope="col" ta="right">{t("modules.quotes.lines.line_gross")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.id ?? item.position}>
                <Table.Td>{item.position}</Table.Td>
                <Table.Td style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
                  {item.description}
                  {item.vat_exemption_reason && (
                    <Text size="xs" c="dimmed">
                      {t("modules.quotes.lines.vat_exemption_reason")}: {item.vat_exemption_reason}
                    </Text>
                  )}
                  {item.withholding_rate && (
                    <Text size="xs" c="dimmed">
                      {t("modules.quotes.lines.withholding_rate")}: {item.withholding_rate}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td {...numeric}>
                  {formatDecimal(item.quantity, language)} {item.unit ?? ""}
                </Table.Td>
                <Table.Td {...numeric}>{money(item.unit_price)}</Table.Td>
                <Table.Td {...numeric}>
                  {item.discount_value && Number(item.discount_value) !== 0
                    ? item.discount_type === "amount"
                      ? money(item.discount_value)
                      : formatRate(item.discount_value, language)
                    : "—"}
                </Table.Td>
                <Table.Td>{formatRate(item.vat_rate, language)}</Table.Td>
                <Table.Td {...numeric}>{money(item.line_net)}</Table.Td>
                <Table.Td {...numeric}>{money(item.line_vat)}</Table.Td>
                <Table.Td {...numeric}>{money(item.line_gross)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}

function Revisions({ details }: { details: QuoteDetails }) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const { quote, revisions } = details;
  return (
    <Table.ScrollContainer minWidth={480} type="native">
      <Table striped aria-label={t("modules.quotes.detail.revisionsLabel")}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t("modules.quotes.fields.revision")}</Table.Th>
            <Table.Th scope="col">{t("modules.quotes.fields.status")}</Table.Th>
            <Table.Th scope="col">{t("modules.quotes.fields.quote_date")}</Table.Th>
            <Table.Th scope="col" ta="right">{t("modules.quotes.fields.grand_total")}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {[...revisions].sort((a, b) => a.revision - b.revision).map((revision) => (
            <Table.Tr key={revision.id}>
              <Table.Td>
                {revision.id === quote.id ? (
                  <Text size="sm" fw={600}>
                    {t("modules.quotes.detail.revisionLink", { revision: revision.revision })} ({t("modules.quotes.detail.currentRevision")})
                  </Text>
                ) : (
                  <Anchor component={Link} to={`/quotes/${revision.id}`} size="sm">
                    {t("modules.quotes.detail.revisionLink", { revision: revision.revision })}
                  </Anchor>
                )}
              </Table.Td>
              <Table.Td>
                <QuoteStatusBadge status={revision.status} />
              </Table.Td>
              <Table.Td>{revision.quote_date ? formatCalendarDate(revision.quote_date, language) : "—"}</Table.Td>
              <Table.Td ta="right">{formatAmount(revision.grand_total, quote.currency, language)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
