/**
 * An organization's custom fields in a module's list (DESIGN.md D11): the columns, the filters
 * and the export cells derived from the same declarations (useCustomFields), so that a field an
 * admin adds shows, sorts, filters and exports like a standard one without a line of module code.
 *
 * customCellText is the list's and the export's text of a value. It is a minimal local
 * formatter until the record pages' shared one (custom-field-values.ts, formatCustomValue)
 * lands; the two are then one.
 */
import { createElement } from "react";
import type { Json } from "@/types/database.types.ts";
import type { ExportColumn } from "@/lib/spreadsheet/write.ts";
import type { RecordBase } from "../record-api.ts";
import type { RecordColumn, RecordFilter, RecordListConfig, RecordPickerFilter, RecordRangeFilter } from "../record-config.ts";
import { recordPickerSources, type PickableModule, type RecordPickerSource } from "../record-links.ts";
import { CustomChoiceBadges, CustomLinkName } from "./CustomCells.tsx";
import { linkedRecordName } from "./custom-link-names.ts";
import { customLabel, shownCustomFields, textCustomFieldTypes, type CustomField, type CustomFieldType } from "./custom-fields.ts";

const locales: Record<string, string> = { tr: "tr-TR", en: "en-GB" };
const localeOf = (language: string | undefined) => locales[language ?? "tr"] ?? "tr-TR";
const yesNo: Record<string, readonly [string, string]> = { tr: ["Evet", "Hayır"], en: ["Yes", "No"] };

/** A calendar date ("2026-12-31", or a timestamp's date part) as that day, never shifted by time zones. */
function calendarDay(text: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  return match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
}

/** A choice value's option label (the value itself for an option removed since). */
function optionLabel(field: CustomField, value: string, language: string | undefined): string {
  const option = field.options.find((candidate) => candidate.value === value);
  return option ? customLabel(option, language) : value;
}

/**
 * A custom value as text in the interface's language: an option's label, a number, an amount
 * with its currency, a percentage, a date, yes or no; null when there is none. A link is
 * named by its record elsewhere (CustomLinkName, the export's lookup): here it has no text.
 */
export function customCellText(field: CustomField, value: unknown, language: string | undefined): string | null {
  if (value === null || value === undefined || value === "") return null;
  const locale = localeOf(language);
  switch (field.type) {
    case "number":
    case "money":
    case "percent": {
      const number = typeof value === "number" ? value : Number(value);
      if (!Number.isFinite(number)) return String(value);
      if (field.type === "number") return new Intl.NumberFormat(locale, { maximumFractionDigits: 6 }).format(number);
      if (field.type === "percent") {
        return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: 4 }).format(number / 100);
      }
      return new Intl.NumberFormat(locale, { style: "currency", currency: field.currency ?? "TRY" }).format(number);
    }
    case "date": {
      const day = calendarDay(String(value));
      return day ? new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" }).format(day) : String(value);
    }
    case "datetime": {
      const instant = new Date(String(value));
      return Number.isNaN(instant.getTime())
        ? String(value)
        : new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(instant);
    }
    case "boolean":
      return (yesNo[language ?? "tr"] ?? yesNo.tr)[value === true ? 0 : 1];
    case "choice":
      return optionLabel(field, String(value), language);
    case "multi_choice": {
      const values = Array.isArray(value) ? value.map(String) : [String(value)];
      return values.length === 0 ? null : values.map((item) => optionLabel(field, item, language)).join(", ");
    }
    case "link":
      return null;
    default:
      return String(value);
  }
}

/** The module whose records a link field points to, when the app can name and pick them. */
export function linkSource(field: CustomField): RecordPickerSource | null {
  return field.link_module !== null && Object.hasOwn(recordPickerSources, field.link_module)
    ? recordPickerSources[field.link_module as PickableModule]
    : null;
}

/** Types the list cannot sort by (private.record_page: no order on long texts and arrays). */
const unsortable: readonly CustomFieldType[] = ["long_text", "multi_choice"];

/** A numeric or calendar custom type's cell type in an export file (numbers as numbers, dates as dates). */
const exportTypes: Partial<Record<CustomFieldType, ExportColumn["type"]>> = {
  number: "number",
  percent: "number",
  money: "money",
  date: "date",
  datetime: "datetime",
};

/**
 * The list columns of a module's shown custom fields, after the module's own: listed ones shown
 * by default, the others offered in the column picker; sortable by their key where the type
 * allows; each cell as its type reads (options as their coloured labels, a link as the
 * record's name), and the export's cell the same text, with numbers and dates typed.
 */
export function customColumns<Row extends { id: string }>(fields: readonly CustomField[] | undefined, language: string | undefined): RecordColumn<Row>[] {
  return shownCustomFields(fields).map((field) => {
    const valueOf = (row: Row): unknown => (row as Record<string, unknown>)[field.key];
    const source = field.type === "link" ? linkSource(field) : null;
    const exportType = exportTypes[field.type];
    return {
      key: field.key,
      label: customLabel(field, language),
      ...(unsortable.includes(field.type) ? {} : { sort: field.key }),
      ...(field.listed ? {} : { hidden: true }),
      render: (row: Row) => {
        const value = valueOf(row);
        if (field.type === "choice" || field.type === "multi_choice") return createElement(CustomChoiceBadges, { field, value });
        if (field.type === "link") {
          return typeof value === "string" && value !== "" && source ? createElement(CustomLinkName, { source, id: value }) : "—";
        }
        if (field.type === "url" && typeof value === "string" && /^https?:\/\//i.test(value)) {
          return createElement("a", { href: value, target: "_blank", rel: "noopener noreferrer" }, value);
        }
        return customCellText(field, value, language) ?? "—";
      },
      ...(exportType
        ? { exportType, exportValue: (row: Row) => (valueOf(row) ?? null) as string | number | null }
        : field.type === "link"
          ? source
            ? { exportLookup: (rows: Row[], signal: AbortSignal) => linkNameLookup(source, rows, valueOf, signal) }
            : { exportValue: () => null }
          : { exportValue: (row: Row) => customCellText(field, valueOf(row), language) }),
    } satisfies RecordColumn<Row>;
  });
}

/** Filter values of the "filled / empty" filter of a text field. */
export const presenceValues = ["filled", "empty"] as const;

/** Words the filters offer (the list's catalogue texts). */
export interface CustomFilterWords {
  yes: string;
  no: string;
  filled: string;
  empty: string;
}

export type CustomFilter = RecordFilter | RecordPickerFilter | RecordRangeFilter;

/**
 * The list filters of a module's filterable custom fields, each sending list_<module> the shape
 * its type takes: a choice its option's value, a multi choice [value] (records holding it), yes
 * or no [true] / [false], a link the record's id, a number or a date {"from", "to"}, a text
 * {"is_null": …} (filled or empty).
 */
export function customFilters(fields: readonly CustomField[] | undefined, language: string | undefined, words: CustomFilterWords): CustomFilter[] {
  return shownCustomFields(fields)
    .filter((field) => field.filterable)
    .flatMap((field): CustomFilter[] => {
      const label = customLabel(field, language);
      switch (field.type) {
        case "choice":
        case "multi_choice":
          return [
            {
              key: field.key,
              label,
              options: field.options.map((option) => ({ value: option.value, label: customLabel(option, language) })),
              ...(field.type === "multi_choice" ? { query: (value: string): Json => [value] } : {}),
            },
          ];
        case "boolean":
          return [
            {
              key: field.key,
              label,
              options: [
                { value: "true", label: words.yes },
                { value: "false", label: words.no },
              ],
              query: (value: string): Json => [value === "true"],
            },
          ];
        case "link": {
          const source = linkSource(field);
          return source ? [{ key: field.key, label, picker: source }] : [];
        }
        case "number":
        case "money":
        case "percent":
          return [{ key: field.key, label, range: "number" }];
        case "date":
        case "datetime":
          return [{ key: field.key, label, range: "date" }];
        default:
          if (!(textCustomFieldTypes as readonly string[]).includes(field.type)) return [];
          return [
            {
              key: field.key,
              label,
              options: [
                { value: "filled", label: words.filled },
                { value: "empty", label: words.empty },
              ],
              query: (value: string): Json => ({ is_null: value === "empty" }),
            },
          ];
      }
    });
}

/** How many linked records an export names at once. */
const LOOKUP_CONCURRENCY = 8;

/**
 * The names of the records a link column points to, each record read once (get_<entity>) for
 * all the exported rows, a few at a time: a record the user may not see has no name (the cell
 * stays empty, never its id).
 */
async function linkNameLookup<Row>(
  source: RecordPickerSource,
  rows: Row[],
  valueOf: (row: Row) => unknown,
  signal: AbortSignal,
): Promise<(row: Row) => string | null> {
  const idOf = (row: Row) => {
    const value = valueOf(row);
    return typeof value === "string" && value !== "" ? value : null;
  };
  const ids = [...new Set(rows.map(idOf).filter((id) => id !== null))];
  const names = new Map<string, string | null>();
  for (let start = 0; start < ids.length; start += LOOKUP_CONCURRENCY) {
    signal.throwIfAborted();
    const batch = ids.slice(start, start + LOOKUP_CONCURRENCY);
    const found = await Promise.all(batch.map((id) => linkedRecordName(source, id)));
    batch.forEach((id, index) => names.set(id, found[index]));
  }
  return (row) => {
    const id = idOf(row);
    return id === null ? null : (names.get(id) ?? null);
  };
}

/** A module's list with its organization's custom fields: their columns after the module's, their filters after its filters. */
export function withCustomFields<Row extends RecordBase>(
  config: RecordListConfig<Row>,
  fields: readonly CustomField[] | undefined,
  language: string | undefined,
  words: CustomFilterWords,
): RecordListConfig<Row> {
  return {
    ...config,
    columns: [...config.columns, ...customColumns<Row>(fields, language)],
    filters: [...config.filters, ...customFilters(fields, language, words)],
  };
}
