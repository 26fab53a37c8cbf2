import { Button, Group, NativeSelect, Paper, Select, SimpleGrid, Stack, Switch, Text, Textarea, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useReducer, useState } from "react";
import type { Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { RecordPicker } from "@/components/records/RecordPicker.tsx";
import type { CustomFormValues } from "@/components/records/custom-fields/custom-field-form.ts";
import { CustomFieldsSection } from "@/components/records/custom-fields/CustomFieldsSection.tsx";
import { UnsavedChangesModal } from "@/components/records/RecordFormModal.tsx";
import { StaleRecordAlert } from "@/components/records/StaleRecordAlert.tsx";
import { useRecordForm } from "@/components/records/use-record-form.ts";
import { notifyFailure } from "@/components/notify.ts";
import { failureKey } from "@/lib/errors.ts";
import { formatCalendarDate } from "@/lib/format.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { discountTypes, saveQuote, savedQuoteSchema, useProducts, useQuotePreview, type QuoteDetails, type SavedQuote } from "../api/quotes.ts";
import {
  canonicalRate,
  cellErrorKey,
  decimalInputText,
  headerErrors,
  lineErrorsOnly,
  linesReducer,
  previewBlocked,
  quoteErrorsOf,
  quoteHeaderFields,
  quoteLinesChanged,
  quotePayload,
  vatRateOptions,
  type QuoteErrors,
  type QuoteForm,
  type QuoteHeaderForm,
} from "../utils/quote-form.ts";
import { formatDecimal } from "../utils/quote-format.ts";
import { QuoteLinesEditor } from "./QuoteLinesEditor.tsx";
import { QuoteTotals } from "./QuoteTotals.tsx";

interface Props {
  /** The form's first values (a new quote's defaults, or a saved draft). */
  initial: QuoteForm;
  /** The draft being edited (its id and version); absent for a new quote. */
  quote?: QuoteDetails["quote"];
  onSaved(saved: { id: string; quote_number: string | null; created: boolean }): void;
  onCancel(): void;
  /** Reads the saved quote again (after a stale refusal); answers its latest details. */
  onReload?(): Promise<QuoteDetails | undefined>;
  /** Puts the latest saved quote into the form. */
  onReset?(details: QuoteDetails): void;
}

/** The header's own checks are quotePayload's cells (shown as typed); the form's resolver adds the custom fields' rules. */
const headerResolver: Resolver<QuoteHeaderForm> = (values) => ({ values, errors: {} });

const focusFirstError = () =>
  window.setTimeout(() => document.querySelector<HTMLElement>("[data-quote-editor] [aria-invalid='true']")?.focus(), 0);

const knownCurrencies = ["TRY", "USD", "EUR", "GBP"];
const PREVIEW_DEBOUNCE_MS = 300;

/** The codes a save's refusal can carry that the quotes catalogue words. */
export const quoteFailureCodes = [
  "quote_locked",
  "invalid_transition",
  "items_required",
  "quote_expired",
  "quote_superseded",
  "exchange_rate_required",
  "deal_not_updated",
  "too_many_items",
  "stale_record",
  "not_found",
  "permission_denied",
  "invalid_input",
  "invalid_fields",
] as const;

export function quoteFailureKey(error: unknown) {
  return failureKey(error, "modules.quotes.errors", quoteFailureCodes);
}

/**
 * Writes a quote: the header (customer, contact and deal pickers, dates, currency with its
 * exchange rate, KDV-included prices, payment terms, notes, overall discount), the lines, and
 * the totals the database computes while the user types (preview_quote_totals, debounced).
 * The header and the custom fields are the record form's (useRecordForm: its one save, here
 * save_quote with the lines; the header's refused fields on their inputs; the stale record's
 * alert; the question before cancelling with unsaved changes); the lines are this editor's own
 * input (linesReducer), and a refusal's cell errors land on their cells.
 */
export function QuoteEditor({ initial, quote, onSaved, onCancel, onReload, onReset }: Props) {
  const { t, i18n } = useTranslation();
  const language = i18n.resolvedLanguage;
  const settings = useOrganizationSettings();
  const products = useProducts();
  const [lines, dispatch] = useReducer(linesReducer, initial.lines);
  // The lines' cell errors a save's refusal carried (the header's and the custom fields' are on their inputs).
  const [cellErrors, setCellErrors] = useState<QuoteErrors>({});
  const [showRequired, setShowRequired] = useState(false);
  const record = useRecordForm<SavedQuote, QuoteHeaderForm>({
    module: "quotes",
    entity: "quote",
    schema: savedQuoteSchema,
    fields: quoteHeaderFields,
    resolver: headerResolver,
    // The header as read (a quote read again after a stale refusal remounts the editor with its latest values).
    formOf: () => initial.header,
    valuesOf: (form) => quotePayload({ header: form, lines }, language).values,
    // The lines as on screen when the save is sent (payload is this render's).
    save: (values, base) => saveQuote(values, payload.items, base),
    dirty: quoteLinesChanged(initial.lines, lines),
    fieldErrorKey: cellErrorKey,
    failedTitle: t("modules.quotes.editor.failed"),
    failureKey: (error) => (quoteErrorsOf(error) ? "modules.quotes.editor.checkCells" : quoteFailureKey(error)),
    notice: (saved) => ({ number: saved.quote_number ?? "" }),
    record: quote,
    onClose: (saved) => (saved ? onSaved({ id: saved.id, quote_number: saved.quote_number, created: false }) : onCancel()),
    onCreated: (created) => onSaved({ id: created.id, quote_number: created.quote_number, created: true }),
    onRefused: (error) => {
      const cells = quoteErrorsOf(error);
      if (cells) {
        setCellErrors(lineErrorsOnly(cells));
        focusFirstError();
      }
    },
    readLatest: () =>
      void onReload?.().then((latest) => {
        if (latest) onReset?.(latest);
      }),
  });
  const { form } = record;
  const header = form.watch() as QuoteHeaderForm & CustomFormValues;
  // Read while rendering, so the form keeps it up to date for the question on leaving.
  void form.formState.isDirty;

  const defaultVatRate = canonicalRate(String(settings.data?.default_vat_rate ?? 20));
  const organizationRates = (settings.data as { vat_rates?: unknown } | undefined)?.vat_rates;
  const vatRates = vatRateOptions([defaultVatRate, ...(Array.isArray(organizationRates) ? (organizationRates as (string | number)[]) : [])], lines);
  const currencies = [
    ...new Set([header.currency, settings.data?.default_currency ?? "TRY", ...knownCurrencies, ...Object.keys(settings.data?.exchange_rates ?? {})]),
  ];

  const payload = quotePayload({ header, lines }, language);
  const previewKey = previewBlocked(payload.errors) ? null : JSON.stringify({ values: payload.values, items: payload.previewItems });
  const [debouncedKey] = useDebouncedValue(previewKey, PREVIEW_DEBOUNCE_MS);
  const preview = useQuotePreview(debouncedKey);
  // What the preview refused (a discount larger than its line, a date before another…) shows while typing.
  const previewErrors = (previewKey !== null && previewKey === debouncedKey && quoteErrorsOf(preview.error)) || {};
  const localErrors = Object.fromEntries(
    Object.entries(payload.errors).filter(([, code]) => showRequired || (code !== "required" && code !== "vat_exemption_required")),
  );
  const shownErrors: QuoteErrors = { ...previewErrors, ...cellErrors, ...localErrors };
  /** A header field's message: the browser's check first, then the server's (on the form), then the preview's. */
  const headerError = (field: keyof QuoteHeaderForm) => {
    const local = localErrors[field];
    if (local) return t(cellErrorKey(local));
    const server = form.formState.errors[field]?.message;
    if (server) return formMessage(t, server);
    const code = headerErrors(previewErrors)[field];
    return code ? t(cellErrorKey(code)) : undefined;
  };

  const change = (patch: Partial<QuoteHeaderForm>) => {
    for (const [key, value] of Object.entries(patch) as [keyof QuoteHeaderForm, QuoteHeaderForm[keyof QuoteHeaderForm]][]) {
      form.setValue(key, value as never, { shouldDirty: true });
      form.clearErrors(key);
    }
  };
  const dispatchLine: typeof dispatch = (action) => {
    dispatch(action);
    setCellErrors((current) => {
      if (action.type !== "update" && action.type !== "product") return {};
      const prefix = `items.${action.index}.`;
      const touched = action.type === "update" ? Object.keys(action.patch) : ["product_id", "description", "unit", "unit_price", "vat_rate"];
      return Object.fromEntries(Object.entries(current).filter(([key]) => !touched.some((field) => key === prefix + field)));
    });
  };

  const refuseLocally = () => {
    setShowRequired(true);
    notifyFailure(t("modules.quotes.editor.failed"), t("modules.quotes.editor.checkCells"));
    focusFirstError();
  };
  // The form's checks (the custom fields') and the lines' and header's cells must pass before the record form saves.
  const submit = form.handleSubmit(() => {
    if (Object.keys(payload.errors).length > 0) refuseLocally();
    else record.submit();
  }, refuseLocally);

  const foreign = header.currency !== "TRY";
  return (
    <>
      <form
        data-quote-editor
        noValidate
        onSubmit={(event) => {
          setShowRequired(true);
          void submit(event);
        }}
      >
        <Stack gap="lg">
          {record.stale && <StaleRecordAlert onReload={record.reload} />}
          <Paper withBorder p="md" component="section" aria-labelledby="quote-header-title">
            <Title order={2} size="h4" id="quote-header-title" mb="sm">
              {t("modules.quotes.editor.header")}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
              <RecordPicker
                module="customers"
                entity="customer"
                titleColumn="name"
                label={t("modules.quotes.fields.customer_id")}
                placeholder={t("modules.quotes.editor.customerPlaceholder")}
                nothingFound={t("modules.quotes.editor.noCustomer")}
                value={header.customer_id}
                onChange={(value) => change({ customer_id: value, ...(value !== header.customer_id ? { contact_id: null } : {}) })}
                error={headerError("customer_id")}
                required
              />
              <RecordPicker
                module="contacts"
                entity="contact"
                titleColumn="last_name"
                labelColumns={["first_name"]}
                labelOf={(row) => [row.first_name, row.last_name].filter(Boolean).join(" ") || "—"}
                describe={(row) => (typeof row.customer_name === "string" ? row.customer_name : null)}
                preferFilters={header.customer_id ? { customer_id: header.customer_id } : null}
                preferredLabel={t("records.picker.customerContacts")}
                label={t("modules.quotes.fields.contact_id")}
                placeholder={t("modules.quotes.editor.contactPlaceholder")}
                nothingFound={t("modules.quotes.editor.noContact")}
                value={header.contact_id}
                onChange={(value) => change({ contact_id: value })}
                error={headerError("contact_id")}
              />
              <RecordPicker
                module="deals"
                entity="deal"
                titleColumn="title"
                label={t("modules.quotes.fields.deal_id")}
                placeholder={t("modules.quotes.editor.dealPlaceholder")}
                nothingFound={t("modules.quotes.editor.noDeal")}
                value={header.deal_id}
                onChange={(value) => change({ deal_id: value })}
                error={headerError("deal_id")}
              />
              <TextInput
                type="date"
                required
                label={t("modules.quotes.fields.quote_date")}
                value={header.quote_date}
                onChange={(event) => change({ quote_date: event.currentTarget.value })}
                error={headerError("quote_date")}
              />
              <TextInput
                type="date"
                label={t("modules.quotes.fields.valid_until")}
                value={header.valid_until}
                onChange={(event) => change({ valid_until: event.currentTarget.value })}
                error={headerError("valid_until")}
              />
              <Select
                label={t("modules.quotes.fields.currency")}
                allowDeselect={false}
                data={currencies}
                value={header.currency}
                onChange={(value) => value && change({ currency: value, exchange_rate: "" })}
                error={headerError("currency")}
              />
              {foreign && (
                <TextInput
                  label={t("modules.quotes.fields.exchange_rate")}
                  description={
                    preview.data?.exchange_rate && header.exchange_rate.trim() === ""
                      ? t("modules.quotes.editor.rateFromSettings", {
                          rate: formatDecimal(preview.data.exchange_rate, language, 6),
                          date: preview.data.exchange_rate_date ? formatCalendarDate(preview.data.exchange_rate_date, language) : "—",
                        })
                      : t("modules.quotes.editor.rateHint")
                  }
                  placeholder={preview.data?.exchange_rate ? decimalInputText(preview.data.exchange_rate, language) : undefined}
                  inputMode="decimal"
                  value={header.exchange_rate}
                  onChange={(event) => change({ exchange_rate: event.currentTarget.value })}
                  error={headerError("exchange_rate")}
                />
              )}
              <Group gap={4} align="flex-start" wrap="nowrap">
                <NativeSelect
                  label={t("modules.quotes.lines.discount_type")}
                  data={discountTypes.map((type) => ({ value: type, label: t(`modules.quotes.discount.${type}`) }))}
                  value={header.document_discount_type}
                  onChange={(event) => change({ document_discount_type: event.currentTarget.value as QuoteHeaderForm["document_discount_type"] })}
                  w={120}
                  error={headerError("document_discount_type")}
                />
                <TextInput
                  label={t("modules.quotes.fields.document_discount_value")}
                  inputMode="decimal"
                  value={header.document_discount_value}
                  onChange={(event) => change({ document_discount_value: event.currentTarget.value })}
                  error={headerError("document_discount_value")}
                  style={{ flex: 1 }}
                />
              </Group>
              <Switch
                label={t("modules.quotes.fields.prices_include_vat")}
                checked={header.prices_include_vat}
                onChange={(event) => change({ prices_include_vat: event.currentTarget.checked })}
                mt={{ base: 0, sm: "lg" }}
              />
            </SimpleGrid>
          </Paper>

          <CustomFieldsSection fields={record.custom.fields} control={form.control} />

          <Stack gap="sm" component="section" aria-labelledby="quote-lines-title">
            <Title order={2} size="h4" id="quote-lines-title">
              {t("modules.quotes.lines.title")}
            </Title>
            <QuoteLinesEditor
              lines={lines}
              dispatch={dispatchLine}
              currency={header.currency}
              vatRates={vatRates}
              defaultVatRate={defaultVatRate}
              products={products.data ?? []}
              amounts={preview.data?.lines}
              errors={shownErrors}
            />
          </Stack>

          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
            <Stack gap="sm">
              <Textarea
                label={t("modules.quotes.fields.payment_terms")}
                autosize
                minRows={2}
                maxLength={2000}
                value={header.payment_terms}
                onChange={(event) => change({ payment_terms: event.currentTarget.value })}
                error={headerError("payment_terms")}
              />
              <Textarea
                label={t("modules.quotes.fields.notes")}
                autosize
                minRows={3}
                maxLength={10000}
                value={header.notes}
                onChange={(event) => change({ notes: event.currentTarget.value })}
                error={headerError("notes")}
              />
            </Stack>
            <Stack gap={4}>
              <QuoteTotals
                totals={preview.data?.totals}
                currency={header.currency}
                updating={preview.isFetching || previewKey !== debouncedKey}
                failed={preview.isError || previewKey === null}
              />
              <Text size="xs" c="dimmed">
                {t("modules.quotes.totals.fromSql")}
              </Text>
            </Stack>
          </SimpleGrid>

          <Group justify="flex-end">
            <Button variant="default" onClick={record.requestClose}>
              {t("modules.quotes.editor.cancel")}
            </Button>
            <Button type="submit" loading={record.waiting}>
              {record.text(record.base ? "save" : "create")}
            </Button>
          </Group>
        </Stack>
      </form>
      {/* Cancelling with unsaved changes (header, custom fields or lines) asks first, as every record form does. */}
      <UnsavedChangesModal record={record} />
    </>
  );
}
