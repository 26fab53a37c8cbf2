/**
 * A module's custom fields (DESIGN.md D11) as further fields of its import kind, derived from
 * the same declarations as its list columns: the file's values reach the import RPCs under
 * each field's key, converted as the create RPCs take them (numbers, yes/no, an option's
 * value, a list of option values, a calendar date).
 */
import { customLabel, shownCustomFields, type CustomField, type CustomFieldType } from "@/components/records/custom-fields/custom-fields.ts";
import type { FieldType, ImportField, ImportKindDefinition } from "./kinds.ts";

/** How a custom field's cell is read (link fields are no import target: a file names records, the field takes an id). */
const customFieldTypes: Partial<Record<CustomFieldType, FieldType>> = {
  text: "text",
  long_text: "text",
  email: "text",
  phone: "text",
  url: "text",
  number: "number",
  percent: "number",
  money: "money",
  date: "date",
  datetime: "datetime",
  boolean: "boolean",
  choice: "enum",
  multi_choice: "options",
};

/**
 * A kind with its module's custom fields (shown ones) as further fields: each under its key,
 * its label in the interface's language, its Turkish and English labels as the header names a
 * file may use (matched folded, like every header); a choice's options by their value or either
 * label. A kind that is not a module of its own (products) has none.
 */
export function withCustomImportFields(
  definition: ImportKindDefinition,
  fields: readonly CustomField[] | undefined,
  language: string | undefined,
): ImportKindDefinition {
  if (definition.kind !== definition.module) return definition;
  const custom = shownCustomFields(fields).flatMap((field): ImportField[] => {
    const type = customFieldTypes[field.type];
    if (!type) return [];
    const names = (item: { label_tr: string; label_en: string | null }) => [item.label_tr, ...(item.label_en ? [item.label_en] : [])];
    return [
      {
        key: field.key,
        label: { text: customLabel(field, language) },
        type,
        aliases: names(field),
        ...(field.options.length > 0
          ? { options: field.options.map((option) => ({ key: option.value, label: { text: customLabel(option, language) }, aliases: names(option) })) }
          : {}),
      },
    ];
  });
  return custom.length === 0 ? definition : { ...definition, fields: [...definition.fields, ...custom] };
}
