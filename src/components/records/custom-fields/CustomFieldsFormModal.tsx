import { Button, Group, Modal, Stack } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useForm, type FieldValues, type Resolver } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { notifyFailure, notifySuccess } from "@/components/notify.ts";
import type { ModuleKey } from "@/modules/registry.ts";
import { callRecordRpc, useInvalidateRecords } from "../record-api.ts";
import { applyServerFieldErrors, recordFailureKey } from "../record-form.ts";
import { customFormOf, type CustomFormValues } from "./custom-field-form.ts";
import { CustomFieldsSection } from "./CustomFieldsSection.tsx";
import { useCustomFieldsForm } from "./use-custom-fields-form.ts";

/** The custom fields alone need no rules of a module's own. */
const noRules: Resolver<FieldValues> = (values) => Promise.resolve({ values, errors: {} });

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
  const custom = useCustomFieldsForm(module);
  const invalidate = useInvalidateRecords(module);
  const { control, handleSubmit, setError } = useForm<CustomFormValues>({
    resolver: custom.resolver(noRules),
    defaultValues: { custom: customFormOf(record) },
  });
  const save = useMutation({
    mutationFn: (values: CustomFormValues) =>
      callRecordRpc(`update_${entity}`, { p_id: record.id, p_values: custom.valuesOf(values.custom), p_updated_at: record.updated_at }, z.object({ record: z.unknown() })),
    onSuccess: invalidate,
  });
  const onSubmit = handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: () => {
        notifySuccess(t("customFields.detail.saved"));
        onClose();
      },
      onError: (error) => {
        const unplaced = applyServerFieldErrors(error, setError, custom.paths);
        if (unplaced === null || unplaced.length > 0) notifyFailure(t("records.form.failed"), t(recordFailureKey(error)));
      },
    }),
  );
  return (
    <Modal opened onClose={onClose} size="lg" title={t("customFields.detail.editTitle")} closeButtonProps={{ "aria-label": t("records.form.close") }}>
      <form onSubmit={(event) => void onSubmit(event)} noValidate>
        <Stack>
          <CustomFieldsSection fields={custom.fields} control={control} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("records.form.cancel")}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t("customFields.detail.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
