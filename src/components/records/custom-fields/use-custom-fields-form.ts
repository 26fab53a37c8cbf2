import { useMemo } from "react";
import type { FieldValues, Resolver } from "react-hook-form";
import type { ModuleKey } from "@/modules/registry.ts";
import { customFieldPath } from "../record-form.ts";
import { customValuesOf, withCustomFields, type CustomFormValues } from "./custom-field-form.ts";
import { ruledStandardFields, shownCustomFields, useCustomFields } from "./custom-fields.ts";

/**
 * What a module's record form needs for the fields drawn from declarations: the fields it
 * shows (hidden ones never), its resolver wrapped with their rules and those of the standard
 * fields it draws itself that its declarations rule, the paths their server errors land on,
 * the p_values entries of its values, and whether the declarations are still on their way.
 * react-hook-form reads the resolver on every check, so fields that arrive after the form
 * opened are checked too.
 */
export function useCustomFieldsForm(module: ModuleKey) {
  const declared = useCustomFields(module);
  const fields = useMemo(() => shownCustomFields(declared.data), [declared.data]);
  const standard = useMemo(() => ruledStandardFields(declared.data), [declared.data]);
  return {
    fields,
    /**
     * The declarations are still on their way: a form sent now would be checked without their
     * rules and its server errors would have no inputs to land on, so its save button waits.
     */
    pending: declared.isPending,
    /** Where their server errors go (applyServerFieldErrors' formFields, beside the standard ones). */
    paths: fields.map((field) => customFieldPath(field.key)),
    resolver: <Values extends FieldValues, Context, Output extends FieldValues>(base: Resolver<Values, Context, Output>) =>
      withCustomFields(base, fields, standard),
    valuesOf: (custom: CustomFormValues["custom"]) => customValuesOf(custom, fields),
  };
}
