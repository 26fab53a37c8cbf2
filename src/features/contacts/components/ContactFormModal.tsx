import { zodResolver } from "@hookform/resolvers/zod";
import { ActionIcon, Button, Checkbox, Fieldset, Group, NativeSelect, SimpleGrid, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { IconPlus, IconTrash } from "@tabler/icons-react";
import { useState } from "react";
import { Controller, useFieldArray, useWatch, type Control, type UseFormRegister, type FieldErrors } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router-dom";
import type { CustomFormValues } from "@/components/records/custom-fields/custom-field-form.ts";
import { MergeRecordsModal } from "@/components/records/MergeRecordsModal.tsx";
import { useDuplicateCheck } from "@/components/records/record-duplicates.ts";
import { RecordDuplicates } from "@/components/records/RecordDuplicates.tsx";
import { RecordFormModal } from "@/components/records/RecordFormModal.tsx";
import { RecordPicker } from "@/components/records/RecordPicker.tsx";
import { useRecordForm } from "@/components/records/use-record-form.ts";
import { formMessage } from "@/i18n/form-message.ts";
import { contactName, contactSchema, findContactDuplicates, type Contact, type ContactValues } from "../api/contacts.ts";
import { contactFields } from "../utils/contact-fields.ts";
import { channelLabels, consentChannels, iysChannels } from "../utils/contact-fields.ts";
import { contactFormOf, contactFormSchema, contactValuesOf, emptyContactForm, type ContactFormValues } from "../utils/contact-form.ts";
import { duplicateDetails } from "../utils/contact-merge.ts";
import { useContactMerge } from "./useContactMerge.tsx";

/** The form's values: the contact's own and its custom fields'. */
type ContactForm = ContactFormValues & CustomFormValues;

interface Props {
  onClose(): void;
  contact?: Contact;
  /** A new contact's customer (from the customer's page). */
  customerId?: string;
  /** The customer is shown but not changed (a contact added on the customer's page). */
  customerFixed?: boolean;
  /** Once a new contact is created, instead of closing the form and opening the contact's page (the caller closes it). */
  onCreated?(contact: Contact): void;
}


/**
 * Creates or edits a contact: names, its customer, labelled emails and phones, KVKK consent
 * and İYS per channel. A new contact is compared with the existing ones first (same email or
 * phone, similar name): likely duplicates are shown with their reasons, to open, to merge
 * with once created, or to create anyway.
 */
export function ContactFormModal({ onClose, contact, customerId, customerFixed = false, onCreated }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [merging, setMerging] = useState<readonly [string, string] | null>(null);
  const duplicates = useDuplicateCheck((values: ContactValues) => findContactDuplicates(values));
  const mergeConfig = useContactMerge();
  const record = useRecordForm({
    module: "contacts",
    entity: "contact",
    schema: contactSchema,
    fields: contactFields,
    resolver: zodResolver(contactFormSchema),
    formOf: (saved?: Contact): ContactFormValues => (saved ? contactFormOf(saved) : { ...emptyContactForm, customer_id: customerId ?? null }),
    valuesOf: contactValuesOf,
    notice: (saved) => ({ name: contactName(saved) }),
    record: contact,
    onClose,
    beforeCreate: (values, create) => duplicates.check(values as ContactValues, create),
    onCreated,
    onRefused: duplicates.dismiss,
  });
  const {
    register,
    control,
    formState: { errors },
  } = record.form;
  const consent = useWatch({ control, name: "kvkk_consent" });
  /** Creates the contact; given a likely duplicate, then offers to merge the two. */
  const createNow = (values: ContactValues, mergeWith?: string) =>
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
  const error = (name: keyof ContactFormValues) => formMessage(t, errors[name]?.message);
  const found = duplicates.found;

  if (merging) {
    return (
      <MergeRecordsModal
        config={mergeConfig}
        ids={merging}
        onClose={() => {
          setMerging(null);
          onClose();
          void navigate(`/contacts/${merging[1]}`);
        }}
        onMerged={(survivor) => {
          setMerging(null);
          onClose();
          void navigate(`/contacts/${survivor.id}`);
        }}
      />
    );
  }

  return (
    <RecordFormModal
      record={record}
      busy={duplicates.checking}
      instead={
        found && (
          <RecordDuplicates
            title={t("modules.contacts.duplicates.title")}
            description={t("modules.contacts.duplicates.description")}
            listLabel={t("modules.contacts.duplicates.listLabel")}
            duplicates={found.duplicates.map((duplicate) => ({
              id: duplicate.id,
              title: contactName(duplicate),
              details: duplicateDetails(duplicate),
              reasons: duplicate.reasons,
            }))}
            detailPath={(id) => `/contacts/${id}`}
            creating={record.saving}
            onOpen={record.close}
            onBack={duplicates.dismiss}
            onCreateAnyway={() => createNow(found.values)}
            onCreateAndMerge={(id) => createNow(found.values, id)}
          />
        )
      }
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TextInput label={t("modules.contacts.fields.first_name")} error={error("first_name")} maxLength={100}
          autoComplete="given-name" data-autofocus {...register("first_name")} />
        <TextInput label={t("modules.contacts.fields.last_name")} error={error("last_name")} maxLength={100}
          autoComplete="family-name" {...register("last_name")} />
        <TextInput label={t("modules.contacts.fields.title")} error={error("title")} maxLength={100}
          autoComplete="organization-title" {...register("title")} />
        <Controller
          control={control}
          name="customer_id"
          render={({ field }) => (
            <RecordPicker
              module="customers"
              entity="customer"
              titleColumn="name"
              label={t("modules.contacts.fields.customer_id")}
              placeholder={t("modules.contacts.form.customerPlaceholder")}
              nothingFound={t("modules.contacts.form.noCustomer")}
              value={field.value}
              onChange={field.onChange}
              error={error("customer_id")}
              readOnly={customerFixed}
            />
          )}
        />
      </SimpleGrid>
      <Channels kind="emails" control={control} register={register} errors={errors} />
      <Channels kind="phones" control={control} register={register} errors={errors} />
      <TextInput label={t("modules.contacts.fields.tags")} description={t("modules.contacts.form.tagsHint")}
        inputWrapperOrder={["label", "input", "description", "error"]} error={error("tags")} {...register("tags")} />
      <Textarea label={t("modules.contacts.fields.description")} autosize minRows={2} maxLength={10000}
        error={error("description")} {...register("description")} />
      <Fieldset legend={t("modules.contacts.form.consentTitle")}>
        <Stack gap="sm">
          <Checkbox label={t("modules.contacts.fields.kvkk_consent")} {...register("kvkk_consent")} />
          {consent && (
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <NativeSelect
                label={t("modules.contacts.fields.kvkk_consent_channel")}
                required
                error={error("kvkk_consent_channel")}
                data={[
                  { value: "", label: "—" },
                  ...consentChannels.map((value) => ({ value, label: t(`modules.contacts.consentChannels.${value}`) })),
                ]}
                {...register("kvkk_consent_channel")}
              />
              <TextInput label={t("modules.contacts.fields.kvkk_consent_source")} maxLength={200}
                error={error("kvkk_consent_source")} {...register("kvkk_consent_source")} />
            </SimpleGrid>
          )}
          <Stack gap={4} role="group" aria-labelledby="iys-consent-label">
            <Text id="iys-consent-label" size="sm" fw={500}>
              {t("modules.contacts.fields.iys_consent")}
            </Text>
            <Text size="xs" c="dimmed">
              {t("modules.contacts.form.iysHint")}
            </Text>
            <Group mt={4}>
              {iysChannels.map((channel) => (
                <Checkbox key={channel} label={t(`modules.contacts.iys.${channel}`)} {...register(`iys_consent.${channel}`)} />
              ))}
            </Group>
          </Stack>
        </Stack>
      </Fieldset>
    </RecordFormModal>
  );
}

function Channels({ kind, control, register, errors }: {
  kind: "emails" | "phones";
  control: Control<ContactForm>;
  register: UseFormRegister<ContactForm>;
  errors: FieldErrors<ContactForm>;
}) {
  const { t } = useTranslation();
  const { fields, append, remove } = useFieldArray({ control, name: kind });
  const one = kind === "emails" ? "email" : "phone";
  const serverError = formMessage(t, errors[kind]?.message);
  return (
    <Fieldset legend={t(`modules.contacts.fields.${kind}`)}>
      <Stack gap="xs">
        {fields.map((entry, index) => (
          <Group key={entry.id} align="flex-start" gap="xs" wrap="nowrap">
            <NativeSelect
              aria-label={t(`modules.contacts.form.${one}Label`, { index: index + 1 })}
              data={channelLabels.map((value) => ({ value, label: t(`modules.contacts.labels.${value}`) }))}
              w={100}
              {...register(`${kind}.${index}.label`)}
            />
            <TextInput
              aria-label={t(`modules.contacts.form.${one}Value`, { index: index + 1 })}
              type={one === "email" ? "email" : "tel"}
              style={{ flex: 1, minWidth: 0 }}
              error={formMessage(t, errors[kind]?.[index]?.value?.message)}
              {...register(`${kind}.${index}.value`)}
            />
            <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t("modules.contacts.form.remove")} onClick={() => remove(index)}>
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Group>
        ))}
        {serverError && (
          <Text size="sm" c="red" role="alert">
            {serverError}
          </Text>
        )}
        {fields.length < 10 && (
          <Group>
            <Button variant="subtle" size="xs" leftSection={<IconPlus size={14} aria-hidden />}
              onClick={() => append({ label: one === "email" ? "work" : "mobile", value: "" })}>
              {t(`modules.contacts.form.add${one === "email" ? "Email" : "Phone"}`)}
            </Button>
          </Group>
        )}
      </Stack>
    </Fieldset>
  );
}
