import { zodResolver } from "@hookform/resolvers/zod";
import { NumberInput, Select, SimpleGrid, Switch, Textarea, TextInput } from "@mantine/core";
import { Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import type { LinkColumn } from "@/components/records/related-records.ts";
import { RecordFormModal } from "@/components/records/RecordFormModal.tsx";
import { RecordPicker } from "@/components/records/RecordPicker.tsx";
import { useRecordForm } from "@/components/records/use-record-form.ts";
import { formMessage } from "@/i18n/form-message.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { savedContractSchema, type Contract } from "../api/contracts.ts";
import { contractFields, contractTypes, withholdingRates } from "../utils/contract-fields.ts";
import { contractFieldErrorKey, contractFormOf, contractFormSchema, contractValuesOf, emptyContractForm, type ContractFormValues } from "../utils/contract-form.ts";

/** A contract as its save answers it. */
type SavedContract = z.infer<typeof savedContractSchema>;

interface Props {
  onClose(): void;
  /** The contract being edited; absent for a new one. */
  contract?: Contract;
  /** A new contract's links (from a customer's or deal's page). */
  links?: Partial<Record<LinkColumn, string>>;
}

const knownCurrencies = ["TRY", "USD", "EUR", "GBP"];
const contactName = (contact: Record<string, string | null>) => [contact.first_name, contact.last_name].filter(Boolean).join(" ") || "—";

/**
 * Creates or edits a contract: title, type, customer, contact, deal and quote, the term,
 * value and currency, draft or active, the signature dates, auto-renewal with its notice
 * period and term. The database's field errors land on their fields.
 */
export function ContractFormModal({ onClose, contract, links = {} }: Props) {
  const { t, i18n } = useTranslation();
  const settings = useOrganizationSettings();
  const record = useRecordForm({
    module: "contracts",
    entity: "contract",
    schema: savedContractSchema,
    fields: contractFields,
    resolver: zodResolver(contractFormSchema),
    formOf: (saved?: SavedContract) =>
      saved
        ? contractFormOf(saved as Contract)
        : emptyContractForm(settings.data?.default_currency ?? "TRY", { customerId: links.customer_id, contactId: links.contact_id, dealId: links.deal_id, quoteId: links.quote_id }),
    valuesOf: (form, base) => contractValuesOf(form, base as Contract | undefined),
    fieldErrorKey: contractFieldErrorKey,
    failedTitle: t("modules.contracts.form.failed"),
    notice: (saved) => ({ title: saved.title }),
    record: contract,
    onClose,
  });
  const base = record.base;
  const {
    register,
    control,
    formState: { errors },
  } = record.form;
  // The contact picker offers the chosen customer's contacts first.
  const chosenCustomer = useWatch({ control, name: "customer_id" });

  const error = (name: keyof ContractFormValues) => formMessage(t, errors[name]?.message);
  const field = (name: keyof ContractFormValues) => ({ label: t(`modules.contracts.fields.${name}`), error: error(name) });
  const currencies = [...new Set([settings.data?.default_currency ?? "TRY", ...knownCurrencies, ...Object.keys(settings.data?.exchange_rates ?? {})])];
  const picker = (name: "customer_id" | "contact_id" | "deal_id" | "quote_id") => {
    const setup = {
      customer_id: { module: "customers", entity: "customer", titleColumn: "name", placeholder: "customerPlaceholder", nothing: "noCustomer" },
      contact_id: { module: "contacts", entity: "contact", titleColumn: "last_name", placeholder: "contactPlaceholder", nothing: "noContact" },
      deal_id: { module: "deals", entity: "deal", titleColumn: "title", placeholder: "dealPlaceholder", nothing: "noDeal" },
      quote_id: { module: "quotes", entity: "quote", titleColumn: "quote_number", placeholder: "quotePlaceholder", nothing: "noQuote" },
    } as const;
    const { module, entity, titleColumn, placeholder, nothing } = setup[name];
    return (
      <Controller
        control={control}
        name={name}
        render={({ field: input }) => (
          <RecordPicker
            module={module}
            entity={entity}
            titleColumn={titleColumn}
            {...(name === "contact_id"
              ? {
                  labelColumns: ["first_name"],
                  labelOf: contactName,
                  describe: (row: Record<string, unknown>) => (typeof row.customer_name === "string" ? row.customer_name : null),
                  preferFilters: chosenCustomer ? { customer_id: chosenCustomer } : null,
                  preferredLabel: t("records.picker.customerContacts"),
                }
              : {})}
            label={t(`modules.contracts.fields.${name}`)}
            placeholder={t(`modules.contracts.form.${placeholder}`)}
            nothingFound={t(`modules.contracts.form.${nothing}`)}
            value={input.value}
            onChange={input.onChange}
            error={error(name)}
          />
        )}
      />
    );
  };
  const dateInput = (name: "start_date" | "end_date" | "customer_signed_on" | "company_signed_on") => (
    <TextInput {...field(name)} type="date" {...register(name, { setValueAs: (value: string) => value || null })} />
  );

  /** An amount in the language's number format, kept as its decimal text (exact to the kuruş). */
  const amountInput = (name: "value" | "vat_amount" | "withholding_amount", hint?: "vatHint" | "withholdingHint") => (
    <Controller
      control={control}
      name={name}
      render={({ field: input }) => (
        <NumberInput
          {...field(name)}
          description={hint && t(`modules.contracts.form.${hint}`)}
          min={0}
          decimalScale={2}
          allowNegative={false}
          thousandSeparator={i18n.resolvedLanguage === "en" ? "," : "."}
          decimalSeparator={i18n.resolvedLanguage === "en" ? "." : ","}
          inputMode="decimal"
          value={input.value}
          onChange={(value) => input.onChange(value === "" ? "" : String(value))}
          onBlur={input.onBlur}
        />
      )}
    />
  );

  return (
    <RecordFormModal record={record}>
      <TextInput {...field("title")} required maxLength={300} {...register("title")} data-autofocus />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={control}
          name="contract_type"
          render={({ field: input }) => (
            <Select
              {...field("contract_type")}
              required
              allowDeselect={false}
              data={contractTypes.map((type) => ({ value: type, label: t(`modules.contracts.types.${type}`) }))}
              value={input.value}
              onChange={(value) => value && input.onChange(value)}
            />
          )}
        />
        {(!base || base.status === "draft") && (
          <Controller
            control={control}
            name="status"
            render={({ field: input }) => (
              <Select
                {...field("status")}
                description={t("modules.contracts.form.statusHint")}
                allowDeselect={false}
                data={(["draft", "active"] as const).map((status) => ({ value: status, label: t(`modules.contracts.statuses.${status}`) }))}
                value={input.value}
                onChange={(value) => value && input.onChange(value)}
              />
            )}
          />
        )}
        {picker("customer_id")}
        {picker("contact_id")}
        {picker("deal_id")}
        {picker("quote_id")}
        {dateInput("start_date")}
        {dateInput("end_date")}
        {amountInput("value")}
        {amountInput("vat_amount", "vatHint")}
        {amountInput("withholding_amount", "withholdingHint")}
        <Controller
          control={control}
          name="withholding_rate"
          render={({ field: input }) => (
            <Select
              {...field("withholding_rate")}
              placeholder={t("modules.contracts.form.noWithholding")}
              clearable
              data={withholdingRates.map((rate) => ({ value: rate, label: rate }))}
              value={input.value}
              onChange={(value) => input.onChange(value)}
            />
          )}
        />
        <Controller
          control={control}
          name="value_includes_vat"
          render={({ field: input }) => (
            <Switch
              mt={{ sm: "xl" }}
              label={t("modules.contracts.fields.value_includes_vat")}
              checked={input.value}
              onChange={(event) => input.onChange(event.currentTarget.checked)}
            />
          )}
        />
        <Controller
          control={control}
          name="currency"
          render={({ field: input }) => (
            <Select {...field("currency")} allowDeselect={false} data={currencies} value={input.value} onChange={(value) => value && input.onChange(value)} />
          )}
        />
        {dateInput("customer_signed_on")}
        {dateInput("company_signed_on")}
      </SimpleGrid>
      <Controller
        control={control}
        name="auto_renew"
        render={({ field: input }) => (
          <Switch
            label={t("modules.contracts.fields.auto_renew")}
            description={t("modules.contracts.form.autoRenewHint")}
            checked={input.value}
            onChange={(event) => input.onChange(event.currentTarget.checked)}
          />
        )}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={control}
          name="renewal_notice_days"
          render={({ field: input }) => (
            <NumberInput
              {...field("renewal_notice_days")}
              description={t("modules.contracts.form.noticeHint")}
              min={0}
              max={365}
              allowDecimal={false}
              clampBehavior="none"
              value={input.value}
              onChange={(value) => input.onChange(value === "" ? "" : Number(value))}
            />
          )}
        />
        <Controller
          control={control}
          name="renewal_term_months"
          render={({ field: input }) => (
            <NumberInput
              {...field("renewal_term_months")}
              min={1}
              max={120}
              allowDecimal={false}
              clampBehavior="none"
              value={input.value}
              onChange={(value) => input.onChange(value === "" ? "" : Number(value))}
            />
          )}
        />
      </SimpleGrid>
      <Textarea {...field("notes")} autosize minRows={3} maxLength={10000} {...register("notes")} />
    </RecordFormModal>
  );
}
