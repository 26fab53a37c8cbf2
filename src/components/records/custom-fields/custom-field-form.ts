/**
 * Custom fields in a record form: their values live in the form's own react-hook-form
 * instance under `custom` (so dirty state, reset and the server's field errors work as for the
 * standard fields), checked by zod rules derived from the declarations (the same codes and
 * helpers as the standard fields: required, lengths, e-mail, phone, website), and sent as
 * entries of the module's p_values under their keys.
 *
 * The form holds each value in the shape the record answer gives it (text, number, "YYYY-MM-DD",
 * ISO timestamp, boolean, option values, record id), "" or null when blank: a record's values
 * go into the form as they are, whether or not the declarations have arrived yet.
 */
import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";
import { z } from "zod";
import { isValidEmail, isValidWebsite, normalizePhone } from "@/lib/turkish-identifiers.ts";
import type { Json } from "@/types/database.types.ts";
import { fieldErrorKey, type FieldErrorCode } from "../record-form.ts";
import { CUSTOM_LONG_TEXT_MAX, CUSTOM_TEXT_MAX, type CustomField } from "./custom-fields.ts";
import { isBlankCustomValue } from "./custom-field-values.ts";

/** A custom field's value while it is typed. */
export type CustomInputValue = string | number | boolean | string[] | null;

/** What a record form adds to its values: the custom fields' values by key. */
export type CustomFormValues = {
  custom: Record<string, CustomInputValue | undefined>;
};

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function isCalendarDate(value: string): boolean {
  if (!DATE.test(value)) return false;
  const [year, month, day] = value.split("-").map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** A text field's characters at most: its declaration's, else its type's. */
export function textLimit(field: CustomField): number {
  return field.max_length ?? (field.type === "long_text" ? CUSTOM_LONG_TEXT_MAX : CUSTOM_TEXT_MAX);
}

const optionValues = (field: CustomField) => field.options.map((option) => option.value);

/** What is wrong with a value of a field (the record forms' field error codes), or null when it may be saved. */
export function customFieldError(field: CustomField, value: unknown): FieldErrorCode | null {
  if (field.type === "boolean") return value === null || value === undefined || typeof value === "boolean" ? null : "invalid";
  if (isBlankCustomValue(value)) return field.required ? "required" : null;
  switch (field.type) {
    case "text":
    case "long_text":
    case "email":
    case "phone":
    case "url": {
      if (typeof value !== "string") return "invalid";
      const text = value.trim();
      if (Array.from(text).length > textLimit(field)) return "too_long";
      if (field.type === "email" && !isValidEmail(text)) return "invalid_email";
      if (field.type === "phone" && normalizePhone(text) === null) return "invalid_phone";
      if (field.type === "url" && !isValidWebsite(text)) return "invalid_website";
      return null;
    }
    case "number":
    case "money":
    case "percent":
      return typeof value === "number" && Number.isFinite(value) ? null : "invalid";
    case "date":
      return typeof value === "string" && isCalendarDate(value) ? null : "invalid";
    case "datetime":
      return typeof value === "string" && !Number.isNaN(Date.parse(value)) ? null : "invalid";
    case "choice":
      return typeof value === "string" && optionValues(field).includes(value) ? null : "invalid";
    case "multi_choice":
      return Array.isArray(value) && value.every((item) => optionValues(field).includes(item)) ? null : "invalid";
    case "link":
      return typeof value === "string" && UUID.test(value) ? null : "invalid";
  }
}

/** The zod rules of the form's `custom` values, one per field, each message a catalogue key (formMessage translates it). */
export function customFieldsSchema(fields: readonly CustomField[]) {
  return z.object(
    Object.fromEntries(
      fields.map((field) => [
        field.key,
        z.unknown().superRefine((value, context) => {
          const code = customFieldError(field, value);
          if (code) context.addIssue({ code: "custom", message: fieldErrorKey(code) });
        }),
      ]),
    ),
  );
}

/**
 * The form's resolver with the declared fields' rules beside the module's own: the drawn
 * fields' (custom.<key>) and those of the standard fields the module draws itself whose
 * rules are their types' (`standard`, at their own paths, those the form holds: a name
 * required, a text within its declared length, an e-mail, phone or web address valid, a
 * choice among its options). All run on every check, and their errors land together.
 */
export function withCustomFields<Values extends FieldValues, Context, Output extends FieldValues>(
  base: Resolver<Values, Context, Output>,
  fields: readonly CustomField[],
  standard: readonly CustomField[] = [],
): Resolver<Values & CustomFormValues, Context, Output & CustomFormValues> {
  const schema = customFieldsSchema(fields);
  const errorsOf = (issues: readonly z.core.$ZodIssue[]) =>
    Object.fromEntries(issues.map((issue) => [String(issue.path[0]), { type: "custom", message: issue.message }]));
  return async (values, context, options) => {
    const own = await base(values, context, options as unknown as Parameters<typeof base>[2]);
    const custom = schema.safeParse(values.custom ?? {});
    // Only the fields this form holds (a dialog of custom fields alone holds none of them).
    const held = standard.filter((field) => field.key in values);
    const declared = customFieldsSchema(held).safeParse(Object.fromEntries(held.map((field) => [field.key, values[field.key]])));
    const customErrors = custom.success ? {} : errorsOf(custom.error.issues);
    // The module's own rule on a field comes first (it says more than the type).
    const ownErrors = { ...(declared.success ? {} : errorsOf(declared.error.issues)), ...(own.errors as FieldErrors) };
    if (Object.keys(ownErrors).length === 0 && custom.success) {
      return { values: { ...(own.values as Output), custom: values.custom ?? {} }, errors: {} };
    }
    const errors = Object.keys(customErrors).length > 0 ? { ...ownErrors, custom: customErrors } : ownErrors;
    return { values: {}, errors: errors as FieldErrors<Values & CustomFormValues> };
  };
}

/**
 * A record's values of the fields drawn from declarations as the form holds them: every cf_
 * key of the record answer and the standard fields' among `fields`, as they came.
 */
export function customFormOf(record: object | undefined, fields: readonly CustomField[] = []): CustomFormValues["custom"] {
  const standard = new Set(fields.filter((field) => field.standard && field.drawn).map((field) => field.key));
  return Object.fromEntries(
    Object.entries(record ?? {}).filter(([key]) => key.startsWith("cf_") || standard.has(key)) as [string, CustomInputValue][],
  );
}

/**
 * The p_values entries of the form's custom values: one per field the form shows (hidden
 * fields are not sent, so they keep their values), blank as null, text trimmed, a phone
 * normalised as the standard phone fields are, numbers as numbers, dates as YYYY-MM-DD,
 * a multi choice as its option values. A yes/no field left untouched stays empty unless it
 * is required (then it means no).
 */
export function customValuesOf(custom: CustomFormValues["custom"], fields: readonly CustomField[]): Record<string, Json> {
  return Object.fromEntries(
    fields.map((field): [string, Json] => {
      const value = custom[field.key];
      if (field.type === "boolean") return [field.key, typeof value === "boolean" ? value : field.required ? false : null];
      if (isBlankCustomValue(value) || value === undefined || value === null) return [field.key, null];
      switch (field.type) {
        case "number":
        case "money":
        case "percent":
          return [field.key, Number(value)];
        case "multi_choice":
          return [field.key, Array.isArray(value) ? value : [String(value)]];
        case "phone":
          return [field.key, normalizePhone(String(value)) ?? String(value).trim()];
        default:
          return [field.key, typeof value === "string" ? value.trim() : String(value)];
      }
    }),
  );
}

/** The entries of customValuesOf that differ from what the record holds (for a form that sends only its changes). */
export function changedCustomValues(values: Record<string, Json>, record: object): Record<string, Json> {
  const held = record as Record<string, unknown>;
  return Object.fromEntries(Object.entries(values).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(held[key] ?? null)));
}
