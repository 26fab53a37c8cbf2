import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useForm, type FieldValues, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import type { Json } from "@/types/database.types.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { callRecordRpc, useInvalidateRecords } from "../record-api.ts";
import { applyServerFieldErrors, recordFailureKey } from "../record-form.ts";
import { customFormOf, type CustomFormValues } from "./custom-field-form.ts";
import { CustomFieldsSection } from "./CustomFieldsSection.tsx";
import { useCustomFieldsForm } from "./use-custom-fields-form.ts";

/** The custom fields alone need no rules of a module's own. */
const noRules: Resolver<FieldValues> = (values) => Promise.resolve({ values, errors: {} });

interface CustomValuesModalProps<Answer> {
  module: ModuleKey;
  title: string;
  /** What the form asks for, above the fields (why they are asked). */
  description?: string;
  submitLabel: string;
  /** The values the form starts with (a record's, or none). */
  record?: Record<string, unknown>;
  /** Sends the fields' p_values entries; a refusal's field errors land on their inputs. */
  submit(values: Record<string, Json>): Promise<Answer>;
  onSaved(answer: Answer): void;
  onClose(): void;
}

/**
 * A module's custom fields alone in a dialog (its organization's shown fields, their rules and
 * their server errors on the inputs), for an action that needs their values: a record's custom
 * fields edited on a page without a form of its own, a contract made from a quote when
 * contracts have required fields the quote cannot fill.
 */
export function CustomValuesModal<Answer>({ module, title, description, submitLabel, record, submit, onSaved, onClose }: CustomValuesModalProps<Answer>) {
  const { t } = useTranslation();
  const custom = useCustomFieldsForm(module);
  const { control, handleSubmit, setError } = useForm<CustomFormValues>({
    resolver: custom.resolver(noRules),
    // Given as values: fields declared after the dialog opened fill in, what was typed stays.
    values: { custom: customFormOf(record ?? {}, custom.fields) },
    resetOptions: { keepDirtyValues: true },
  });
  const save = useMutation({ mutationFn: (values: CustomFormValues) => submit(custom.valuesOf(values.custom) as Record<string, Json>) });
  const onSubmit = handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: onSaved,
      onError: (error) => {
        const unplaced = applyServerFieldErrors(error, setError, custom.paths);
        if (unplaced === null || unplaced.length > 0) notifyFailure(t("records.form.failed"), t(recordFailureKey(error)));
      },
    }),
  );
  return (
    <Modal opened onClose={onClose} size="lg" title={title} closeButtonProps={{ "aria-label": t("records.form.close") }}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack>
          {description && <Text size="sm">{description}</Text>}
          <CustomFieldsSection fields={custom.fields} control={control} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("records.form.cancel")}
            </Button>
            <Button type="submit" loading={save.isPending || custom.pending}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/**
 * Edits a record's custom fields alone (update_<entity> with their values only), for a module
 * whose record has no form of its own (a document: uploaded, not typed).
 */
export function CustomFieldsFormModal({ module, entity, record, onClose }: {
  module: ModuleKey;
  entity: string;
  record: { id: string; updated_at: string };
  onClose(): void;
}) {
  const { t } = useTranslation();
  const invalidate = useInvalidateRecords(module);
  return (
    <CustomValuesModal
      module={module}
      title={t("customFields.detail.editTitle")}
      submitLabel={t("customFields.detail.save")}
      record={record}
      submit={async (values) => {
        const answer = await callRecordRpc(`update_${entity}`, { p_id: record.id, p_values: values, p_updated_at: record.updated_at }, z.object({ record: z.unknown() }));
        await invalidate();
        return answer;
      }}
      onSaved={() => {
        notifySuccess(t("customFields.detail.saved"));
        onClose();
      }}
      onClose={onClose}
    />
  );
}
