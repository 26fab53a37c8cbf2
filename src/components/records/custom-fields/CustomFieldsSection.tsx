import { Fieldset, Grid } from "@mantine/core";
import type { ReactNode } from "react";
import { Controller, type Control, type Path } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { formMessage } from "@/i18n/form-message.ts";
import { customFieldPath } from "../record-form.ts";
import type { CustomFormValues, CustomInputValue } from "./custom-field-form.ts";
import { CustomFieldCol, CustomFieldInput } from "./CustomFieldInput.tsx";
import type { CustomField } from "./custom-fields.ts";

/** Renders nothing when the module has no custom fields to show. */
function CustomFieldsFrame({ fields, children }: { fields: readonly CustomField[]; children: ReactNode }) {
  const { t } = useTranslation();
  if (fields.length === 0) return null;
  return (
    <Fieldset legend={t("customFields.form.legend")}>
      <Grid>{children}</Grid>
    </Fieldset>
  );
}

/**
 * The custom fields of a record form built on react-hook-form: each an input of its type,
 * registered in the form's own instance under custom.<key> (useCustomFieldsForm gives the
 * fields, the resolver and the values to send).
 */
export function CustomFieldsSection<Values extends CustomFormValues>({ fields, control }: { fields: readonly CustomField[]; control: Control<Values> }) {
  const { t } = useTranslation();
  return (
    <CustomFieldsFrame fields={fields}>
      {fields.map((field) => (
        <CustomFieldCol key={field.key} field={field}>
          <Controller
            control={control}
            name={customFieldPath(field.key) as Path<Values>}
            render={({ field: input, fieldState }) => (
              <CustomFieldInput
                field={field}
                value={input.value as CustomInputValue | undefined}
                onChange={input.onChange}
                onBlur={input.onBlur}
                error={formMessage(t, fieldState.error?.message)}
              />
            )}
          />
        </CustomFieldCol>
      ))}
    </CustomFieldsFrame>
  );
}
