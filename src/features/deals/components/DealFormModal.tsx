import { zodResolver } from "@hookform/resolvers/zod";
import { MultiSelect, NumberInput, Select, SimpleGrid, TagsInput, Textarea, TextInput } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { notifyFailure } from "@/components/notify.ts";
import { recordBaseSchema, useRecordList } from "@/components/records/record-api.ts";
import { recordFailureKey } from "@/components/records/record-form.ts";
import { RecordFormModal } from "@/components/records/RecordFormModal.tsx";
import { personName, pickerData, type PickerChoice } from "@/components/records/record-links.ts";
import { RecordPicker } from "@/components/records/RecordPicker.tsx";
import { useRecordForm } from "@/components/records/use-record-form.ts";
import { formMessage } from "@/i18n/form-message.ts";
import { useOrganizationSettings } from "@/session/organization-settings.ts";
import { savedDealSchema, useSetDealContacts, type Deal } from "../api/deals.ts";
import { dealFields } from "../utils/deal-fields.ts";
import { dealFormOf, dealFormSchema, dealValuesOf, emptyDealForm, type DealFormValues } from "../utils/deal-form.ts";

/** A deal as its save answers it. */
type SavedDeal = z.infer<typeof savedDealSchema>;

interface Props {
  onClose(): void;
  /** The deal being edited, with its contacts; absent for a new one. */
  deal?: Deal;
  contactIds?: string[];
  /** A new deal's customer and contact (from a customer's or contact's page). */
  customerId?: string;
  contactId?: string;
}

const contactOptionSchema = recordBaseSchema.extend({
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  customer_name: z.string().nullable().optional(),
});
const contactChoice = (contact: z.infer<typeof contactOptionSchema>): PickerChoice => ({
  value: contact.id,
  label: personName(contact),
  description: contact.customer_name ?? null,
});
const knownCurrencies = ["TRY", "USD", "EUR", "GBP"];

/**
 * Creates or edits a deal: title, customer and its contacts, amount and currency, stage
 * and probability (the stage's when left empty), expected close, source, tags; a lost
 * stage asks its reason. The database's field errors land on their fields.
 */
export function DealFormModal({ onClose, deal, contactIds = [], customerId, contactId }: Props) {
  const { t } = useTranslation();
  const settings = useOrganizationSettings();
  const stages = settings.data?.deal_stages ?? [];
  const setContacts = useSetDealContacts();
  const record = useRecordForm({
    module: "deals",
    entity: "deal",
    schema: savedDealSchema,
    fields: dealFields,
    resolver: zodResolver(dealFormSchema(stages)),
    formOf: (saved?: SavedDeal): DealFormValues =>
      saved
        ? dealFormOf(saved as Deal, contactIds)
        : { ...emptyDealForm(settings.data?.default_currency ?? "TRY", stages, customerId ?? null), ...(contactId ? { contact_ids: [contactId] } : {}) },
    valuesOf: (form, base) => dealValuesOf(form, stages, base as Deal | undefined),
    failedTitle: t("modules.deals.form.failed"),
    notice: (saved) => ({ title: saved.title }),
    record: deal,
    onClose,
    // The contacts are saved on their own, once the deal is.
    afterSave: (saved, form, created) => saveContacts(saved.id, form.contact_ids, created ? [] : contactIds),
  });
  const {
    register,
    control,
    formState: { errors },
  } = record.form;
  const [stageKey, customer] = useWatch({ control, name: ["stage", "customer_id"] });
  const stage = stages.find((candidate) => candidate.key === stageKey);
  // The customer's contacts first, then any contact found by name, each with its company.
  const [contactSearch, setContactSearch] = useState("");
  const [settledSearch] = useDebouncedValue(contactSearch.trim(), 300);
  const customerContacts = useRecordList(
    "contacts",
    contactOptionSchema,
    { p_filters: { customer_id: customer }, p_sort: "last_name", p_descending: false, p_limit: 100, p_offset: 0 },
    Boolean(customer),
  );
  const foundContacts = useRecordList("contacts", contactOptionSchema, {
    ...(settledSearch ? { p_search: settledSearch } : {}),
    p_filters: {},
    p_sort: "last_name",
    p_descending: false,
    p_limit: 20,
    p_offset: 0,
  });
  // Chosen contacts keep their names while others are searched.
  const [chosenContacts, setChosenContacts] = useState<Map<string, PickerChoice>>(new Map());

  const saveContacts = async (id: string, wanted: string[], before: string[]) => {
    if (wanted.length === before.length && wanted.every((contact) => before.includes(contact))) return;
    try {
      await setContacts.mutateAsync({ id, contactIds: wanted });
    } catch (error) {
      notifyFailure(t("modules.deals.form.contactsFailed"), t(recordFailureKey(error)));
    }
  };

  const error = (field: keyof DealFormValues) => formMessage(t, errors[field]?.message);
  const field = (name: keyof DealFormValues) => ({ label: t(`modules.deals.fields.${name === "contact_ids" ? "contact_ids" : name}`), error: error(name) });
  const currencies = [...new Set([settings.data?.default_currency ?? "TRY", ...knownCurrencies, ...Object.keys(settings.data?.exchange_rates ?? {})])];
  const firstContacts = customer ? (customerContacts.data?.records ?? []).map(contactChoice) : null;
  const otherContacts = (foundContacts.data?.records ?? []).map(contactChoice);
  const offered = new Set([...(firstContacts ?? []), ...otherContacts].map((choice) => choice.value));
  otherContacts.unshift(...[...chosenContacts.values()].filter((choice) => !offered.has(choice.value)));
  const contactOptions = pickerData(firstContacts, otherContacts, {
    preferred: t("records.picker.customerContacts"),
    others: t("records.picker.others"),
  });
  const rememberContacts = (ids: string[]) =>
    setChosenContacts((current) => {
      const next = new Map([...current].filter(([id]) => ids.includes(id)));
      for (const choice of [...(firstContacts ?? []), ...otherContacts]) if (ids.includes(choice.value)) next.set(choice.value, choice);
      return next;
    });

  return (
    <RecordFormModal record={record} busy={setContacts.isPending}>
      <TextInput {...field("title")} required maxLength={200} {...register("title")} data-autofocus />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={control}
          name="customer_id"
          render={({ field: input }) => (
            <RecordPicker
              module="customers"
              entity="customer"
              titleColumn="name"
              label={t("modules.deals.fields.customer_id")}
              placeholder={t("modules.deals.form.customerPlaceholder")}
              nothingFound={t("modules.deals.form.noCustomer")}
              value={input.value}
              onChange={input.onChange}
              error={error("customer_id")}
            />
          )}
        />
        <Controller
          control={control}
          name="contact_ids"
          render={({ field: input }) => (
            <MultiSelect
              {...field("contact_ids")}
              placeholder={t("modules.deals.form.contactsPlaceholder")}
              searchable
              searchValue={contactSearch}
              onSearchChange={setContactSearch}
              filter={({ options }) => options}
              data={contactOptions}
              value={input.value}
              onChange={(ids) => {
                rememberContacts(ids);
                input.onChange(ids);
              }}
            />
          )}
        />
        <TextInput {...field("amount")} inputMode="decimal" {...register("amount")} />
        <Controller
          control={control}
          name="currency"
          render={({ field: input }) => (
            <Select
              {...field("currency")}
              allowDeselect={false}
              data={currencies}
              value={input.value}
              onChange={(value) => value && input.onChange(value)}
            />
          )}
        />
        <Controller
          control={control}
          name="stage"
          render={({ field: input }) => (
            <Select
              {...field("stage")}
              required
              allowDeselect={false}
              data={stages.map((candidate) => ({ value: candidate.key, label: candidate.name }))}
              value={input.value}
              onChange={(value) => value && input.onChange(value)}
            />
          )}
        />
        <Controller
          control={control}
          name="probability"
          render={({ field: input }) => (
            <NumberInput
              {...field("probability")}
              description={t("modules.deals.form.probabilityHint")}
              placeholder={stage ? String(stage.probability) : undefined}
              min={0}
              max={100}
              allowDecimal={false}
              value={input.value}
              onChange={(value) => input.onChange(value === "" ? "" : Number(value))}
            />
          )}
        />
        <TextInput {...field("expected_close_date")} type="date" {...register("expected_close_date", { setValueAs: (value: string) => value || null })} />
        <TextInput {...field("source")} maxLength={100} {...register("source")} />
      </SimpleGrid>
      {stage?.outcome === "lost" && (
        <Textarea {...field("lost_reason")} required autosize minRows={2} maxLength={500} {...register("lost_reason")} />
      )}
      <Controller
        control={control}
        name="tags"
        render={({ field: input }) => (
          <TagsInput {...field("tags")} placeholder={t("modules.deals.form.tagsPlaceholder")} maxTags={20} value={input.value} onChange={input.onChange} />
        )}
      />
      <Textarea {...field("description")} autosize minRows={3} maxLength={10000} {...register("description")} />
    </RecordFormModal>
  );
}
