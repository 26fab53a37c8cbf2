import { zodResolver } from "@hookform/resolvers/zod";
import { Button, Group, Modal, NumberInput, Select, SimpleGrid, Stack, Switch, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { Controller, useForm, useWatch, type Path } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import { formFieldPath, isStaleRecord, recordFailureKey, serverFieldErrors } from "@/components/records/record-form.ts";
import { customFormOf, type CustomFormValues } from "@/components/records/custom-fields/custom-field-form.ts";
import { CustomFieldsSection } from "@/components/records/custom-fields/CustomFieldsSection.tsx";
import { useCustomFieldsForm } from "@/components/records/custom-fields/use-custom-fields-form.ts";
import type { LinkColumn } from "@/components/records/related-records.ts";
import { RecordPicker } from "@/components/records/RecordPicker.tsx";
import { StaleRecordAlert } from "@/components/records/StaleRecordAlert.tsx";
import { formMessage } from "@/i18n/form-message.ts";
import { RpcError } from "@/lib/rpc.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { contractSchema, useCreateContract, useUpdateContract, type Contract } from "../api/contracts.ts";
import { contractFields, contractTypes, withholdingRates } from "../utils/contract-fields.ts";
import {
  contractFieldErrorKey,
  contractFormOf,
  contractFormSchema,
  contractValuesOf,
  emptyContractForm,
  type ContractFormValues,
} from "../utils/contract-form.ts";

/** The form's values: the contract's own and its custom fields'. */
type ContractForm = ContractFormValues & CustomFormValues;

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
  const navigate = useNavigate();
  const settings = useOrganizationSettings();
  const create = useCreateContract();
  const update = useUpdateContract();
  const [base, setBase] = useState<Contract | undefined>(contract);
  const [stale, setStale] = useState(false);
  const custom = useCustomFieldsForm("contracts");
  const initial: ContractForm = base
    ? { ...contractFormOf(base), custom: customFormOf(base) }
    : { ...emptyContractForm(settings.data?.default_currency ?? "TRY", { customerId: links.customer_id, contactId: links.contact_id, dealId: links.deal_id, quoteId: links.quote_id }), custom: {} };
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ContractForm>({ resolver: custom.resolver(zodResolver(contractFormSchema)), values: initial, resetOptions: { keepDirtyValues: true } });
  // The contact picker offers the chosen customer's contacts first.
  const chosenCustomer = useWatch({ control, name: "customer_id" });

  const failed = (error: unknown) => {
    if (isStaleRecord(error)) {
      setStale(true);
      return;
    }
    const fields = serverFieldErrors(error);
    const placed = Object.entries(fields ?? {}).filter(([column]) => [...contractFields, ...custom.paths].includes(formFieldPath(column)));
    placed.forEach(([column, code], index) =>
      setError(formFieldPath(column) as Path<ContractForm>, { type: "server", message: contractFieldErrorKey(code) }, { shouldFocus: index === 0 }),
    );
    if (!fields || placed.length < Object.keys(fields).length) notifyFailure(t("modules.contracts.form.failed"), t(recordFailureKey(error)));
  };

  const onSubmit = handleSubmit((form) => {
    const values = { ...contractValuesOf(form, base), ...custom.valuesOf(form.custom) };
    if (base) {
      update.mutate(
        { id: base.id, values, updatedAt: base.updated_at },
        {
          onSuccess: (saved) => {
            notifySuccess(t("modules.contracts.form.saved"));
            setBase({ ...base, ...saved });
            onClose();
          },
          onError: failed,
        },
      );
      return;
    }
    create.mutate(values as Parameters<typeof create.mutate>[0], {
      onSuccess: (created) => {
        notifySuccess(t("modules.contracts.form.created", { title: created.title }));
        onClose();
        void navigate(`/contracts/${created.id}`);
      },
      onError: failed,
    });
  });

  const reload = () => {
    const latest = update.error instanceof RpcError ? contractSchema.safeParse(update.error.details.record) : null;
    if (latest?.success) {
      setBase(latest.data);
      reset({ ...contractFormOf(latest.data), custom: customFormOf(latest.data) });
    }
    setStale(false);
  };

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
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={base ? t("modules.contracts.form.editTitle") : t("modules.contracts.form.createTitle")}
      closeButtonProps={{ "aria-label": t("records.form.close") }}
    >
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack>
          {stale && <StaleRecordAlert onReload={reload} />}
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
          <CustomFieldsSection fields={custom.fields} control={control} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("records.form.cancel")}
            </Button>
            <Button type="submit" loading={create.isPending || update.isPending}>
              {base ? t("modules.contracts.form.save") : t("modules.contracts.form.create")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
