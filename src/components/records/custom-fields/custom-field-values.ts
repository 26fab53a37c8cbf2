/**
 * A custom field's stored value as a person reads it: one formatter for the record page, the
 * list's cells, the timeline and the export, so that a value reads the same everywhere (a
 * choice by its option's label, money in its currency, dates in the interface's language,
 * yes/no in words, a link by the linked record's name). Value shapes are the contract's
 * (custom-fields.ts): strings, numbers, "YYYY-MM-DD", ISO timestamps, booleans, arrays of
 * option values, record ids.
 */
import { formatCalendarDate, formatDateTime, formatMoney } from "@/lib/format.ts";
import { formatPhone } from "@/lib/phone.ts";
import { customLabel, type CustomField, type CustomFieldOption } from "./custom-fields.ts";

/** The texts the formatter needs (the app's `t`, narrowed to them, so the formatter stays a pure function). */
export type CustomValueText = (key: "common.yes" | "common.no" | "records.list.linkHidden") => string;

export interface CustomValueContext {
  language: string | undefined;
  t: CustomValueText;
  /** A link field's record's name, as the record answer gives it; null when the caller may not see that record. */
  linkedName?: string | null;
}

function localeFor(language: string | undefined): string {
  return language === "en" ? "en-GB" : "tr-TR";
}

/** Whether a stored value counts as empty (no value, blank text, no options chosen). */
export function isBlankCustomValue(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === "string" && value.trim() === "") || (Array.isArray(value) && value.length === 0);
}

/**
 * The options a choice or multi-choice value names, in the field's option order (a value no
 * longer among the options is kept, named by itself, so nothing stored is hidden).
 */
export function chosenCustomOptions(field: CustomField, value: unknown): CustomFieldOption[] {
  if (isBlankCustomValue(value)) return [];
  const values = (Array.isArray(value) ? value : [value]).map(String);
  const known = field.options.filter((option) => values.includes(option.value));
  const unknown = values
    .filter((item) => !field.options.some((option) => option.value === item))
    .map((item) => ({ value: item, label_tr: item, label_en: null, color: null }));
  return [...known, ...unknown];
}

function numberOf(value: unknown): number | null {
  const number = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? number : null;
}

/** A custom field's value as text; null when it is empty (the caller shows "—" or leaves a cell blank). */
export function formatCustomValue(field: CustomField, value: unknown, context: CustomValueContext): string | null {
  if (isBlankCustomValue(value)) return null;
  const { language, t } = context;
  switch (field.type) {
    case "number": {
      const number = numberOf(value);
      return number === null ? String(value) : new Intl.NumberFormat(localeFor(language), { maximumFractionDigits: 6 }).format(number);
    }
    case "money": {
      const number = numberOf(value);
      return number === null ? String(value) : formatMoney(number, field.currency ?? "TRY", language);
    }
    case "percent": {
      const number = numberOf(value);
      return number === null
        ? String(value)
        : new Intl.NumberFormat(localeFor(language), { style: "percent", maximumFractionDigits: 2 }).format(number / 100);
    }
    case "date":
      return formatCalendarDate(String(value), language);
    case "datetime":
      return formatDateTime(String(value), language);
    case "boolean":
      return t(value === true ? "common.yes" : "common.no");
    case "choice":
    case "multi_choice":
      return chosenCustomOptions(field, value)
        .map((option) => customLabel(option, language))
        .join(", ");
    case "phone":
      return formatPhone(String(value));
    case "link":
      return context.linkedName === undefined || context.linkedName === null ? t("records.list.linkHidden") : context.linkedName;
    default:
      return String(value as string);
  }
}
