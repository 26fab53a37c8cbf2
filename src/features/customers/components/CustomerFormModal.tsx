import { zodResolver } from "@hookform/resolvers/zod";
import { Select, SimpleGrid, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { Controller, useWatch } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import { formatPhone } from "@/lib/phone.ts";
import { ProvinceDistrictFields } from "@/components/ProvinceDistrictFields.tsx";
import { MergeRecordsModal } from "@/components/records/MergeRecordsModal.tsx";
import { useDuplicateCheck } from "@/components/records/record-duplicates.ts";
import { RecordDuplicates } from "@/components/records/RecordDuplicates.tsx";
import { RecordFormModal } from "@/components/records/RecordFormModal.tsx";
import { useRecordForm } from "@/components/records/use-record-form.ts";
import { formMessage } from "@/i18n/form-message.ts";
import { normalizePhone } from "@/lib/turkish-identifiers.ts";
import { customerSchema, findCustomerDuplicates, type Customer, type CustomerValues } from "../api/customers.ts";
import { customerFields, customerKinds, customerStatuses } from "../utils/customer-fields.ts";
import { customerFormOf, customerFormSchema, customerValuesOf, emptyCustomerForm, type CustomerFormValues } from "../utils/customer-form.ts";
import { useCustomerMerge } from "./useCustomerMerge.ts";

interface Props {
  opened: boolean;
  onClose(): void;
  /** The customer being edited; absent for a new one. */
  customer?: Customer;
}

/**
 * Creates or edits a customer. The browser checks first (VKN/TCKN checksum by kind, phone,
 * email, website); the database's field errors land on their fields; a new customer is
 * compared with the existing ones first, and likely duplicates are shown with their reasons.
 */
export function CustomerFormModal({ opened, onClose, customer }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [merging, setMerging] = useState<readonly [string, string] | null>(null);
  const duplicates = useDuplicateCheck((values: CustomerValues) => findCustomerDuplicates(values));
  const mergeConfig = useCustomerMerge();
  const record = useRecordForm({
    module: "customers",
    entity: "customer",
    schema: customerSchema,
    fields: customerFields,
    resolver: zodResolver(customerFormSchema),
    formOf: (saved?: Customer) => (saved ? customerFormOf(saved) : emptyCustomerForm),
    valuesOf: customerValuesOf,
    notice: (saved) => ({ name: saved.name }),
    record: customer,
    onClose,
    beforeCreate: (values, create) => duplicates.check(values as CustomerValues, create),
    onRefused: duplicates.dismiss,
  });
  const {
    register,
    control,
    setValue,
    formState: { errors },
  } = record.form;
  const kind = useWatch({ control, name: "kind" });
  /** Creates the customer; given a likely duplicate, then offers to merge the two. */
  const createNow = (values: CustomerValues, mergeWith?: string) =>
    record.create(
      values,
      mergeWith
        ? (created) => {
            // The form gives way to the merge dialog (closing it would unmount both).
            duplicates.dismiss();
            setMerging([mergeWith, created.id]);
          }
        : undefined,
    );

  const error = (field: keyof CustomerFormValues) => formMessage(t, errors[field]?.message);
  const field = (name: keyof CustomerFormValues) => ({ label: t(`modules.customers.fields.${name}`), error: error(name) });
  const found = duplicates.found;

  if (merging) {
    return (
      <MergeRecordsModal
        config={mergeConfig}
        ids={merging}
        onClose={() => {
          setMerging(null);
          onClose();
          void navigate(`/customers/${merging[1]}`);
        }}
        onMerged={(survivor) => {
          setMerging(null);
          onClose();
          void navigate(`/customers/${survivor.id}`);
        }}
      />
    );
  }

  return (
    <RecordFormModal
      record={record}
      opened={opened}
      busy={duplicates.checking}
      instead={
        found && (
          <RecordDuplicates
            title={t("modules.customers.duplicates.title")}
            description={t("modules.customers.duplicates.description")}
            listLabel={t("modules.customers.duplicates.listLabel")}
            duplicates={found.duplicates.map((duplicate) => ({
              id: duplicate.id,
              title: duplicate.name,
              details: [duplicate.tax_number, duplicate.email, formatPhone(duplicate.phone), duplicate.city].filter(Boolean).join(" · "),
              reasons: duplicate.reasons,
            }))}
            detailPath={(id) => `/customers/${id}`}
            creating={record.saving}
            onOpen={() => {
              duplicates.dismiss();
              record.close();
            }}
            onBack={duplicates.dismiss}
            onCreateAnyway={() => createNow(found.values)}
            onCreateAndMerge={(id) => createNow(found.values, id)}
          />
        )
      }
    >
      <TextInput {...field("name")} required autoComplete="organization" maxLength={300} {...register("name")} data-autofocus />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Controller
          control={control}
          name="kind"
          render={({ field: input }) => (
            <Select
              {...field("kind")}
              required
              allowDeselect={false}
              data={customerKinds.map((value) => ({ value, label: t(`modules.customers.kinds.${value}`) }))}
              value={input.value}
              onChange={(value) => value && input.onChange(value)}
            />
          )}
        />
        <Controller
          control={control}
          name="status"
          render={({ field: input }) => (
            <Select
              {...field("status")}
              required
              allowDeselect={false}
              data={customerStatuses.map((value) => ({ value, label: t(`modules.customers.statuses.${value}`) }))}
              value={input.value}
              onChange={(value) => value && input.onChange(value)}
            />
          )}
        />
        <TextInput
          {...field("tax_number")}
          description={kind === "person" ? t("modules.customers.hints.tckn") : t("modules.customers.hints.vkn")}
          inputMode="numeric"
          maxLength={14}
          autoComplete="off"
          inputWrapperOrder={["label", "input", "description", "error"]}
          {...register("tax_number")}
        />
        <TextInput {...field("tax_office")} maxLength={100} {...register("tax_office")} />
        <TextInput
          {...field("phone")}
          type="tel"
          autoComplete="tel"
          description={t("modules.customers.hints.phone")}
          inputWrapperOrder={["label", "input", "description", "error"]}
          {...register("phone", {
            onBlur: (event: { target: { value: string } }) => {
              const normalised = normalizePhone(event.target.value);
              if (normalised) setValue("phone", normalised, { shouldValidate: true });
            },
          })}
        />
        <TextInput {...field("email")} type="email" autoComplete="email" maxLength={254} {...register("email")} />
        <TextInput {...field("website")} autoComplete="url" maxLength={300} {...register("website")} />
        <TextInput {...field("sector")} maxLength={100} {...register("sector")} />
        <Controller
          control={control}
          name="city"
          render={({ field: city }) => (
            <Controller
              control={control}
              name="district"
              render={({ field: district }) => (
                <ProvinceDistrictFields
                  province={{ ...field("city"), value: city.value, onChange: city.onChange, onBlur: city.onBlur }}
                  district={{ ...field("district"), value: district.value, onChange: district.onChange, onBlur: district.onBlur }}
                />
              )}
            />
          )}
        />
      </SimpleGrid>
      <Textarea {...field("address")} autosize minRows={2} maxLength={1000} autoComplete="street-address" {...register("address")} />
      <TextInput
        {...field("tags")}
        description={t("modules.customers.hints.tags")}
        inputWrapperOrder={["label", "input", "description", "error"]}
        {...register("tags")}
      />
      <Textarea {...field("description")} autosize minRows={3} maxLength={10000} {...register("description")} />
    </RecordFormModal>
  );
}
