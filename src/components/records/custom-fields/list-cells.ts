/**
 * An organization's custom fields in a module's list (DESIGN.md D11): the columns, the filters
 * and the export cells derived from the same declarations (useCustomFields), so that a field an
 * admin adds shows, sorts, filters and exports like a standard one without a line of module code.
 * A cell's and an export's text is the record page's (formatCustomValue), so a value reads the
 * same everywhere.
 */
import { createElement } from "react";
import type { Json } from "@/types/database.types.ts";
import type { ExportColumn } from "@/lib/spreadsheet/write.ts";
import type { RecordBase } from "../record-api.ts";
import type { ListColumn, RecordColumn, RecordFilter, RecordListConfig, RecordListSpec, RecordPickerFilter, RecordRangeFilter } from "../record-config.ts";
import { linkedRecord, recordPickerSources, type PickableModule } from "../record-links.ts";
import type { RecordPickerSource } from "../record-config.ts";
import { CustomChoiceBadges, CustomLinkName } from "./CustomCells.tsx";
import { formatCustomValue, type CustomValueContext } from "./custom-field-values.ts";
import {
  customLabel,
  declaredFields,
  shownCustomFields,
  textCustomFieldTypes,
  type CustomField,
  type CustomFieldType,
  type ModuleDeclarations,
} from "./custom-fields.ts";

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

/** What the list's cells are written with: the interface's language and texts (a link's name is each cell's own). */
export type CustomCellContext = Omit<CustomValueContext, "linkedName">;

/**
 * The list columns of a module's shown custom fields, after the module's own: listed ones shown
 * by default, the others offered in the column picker; sortable by their key where the type
 * allows; each cell as its type reads (options as their coloured labels, a link as the
 * record's name), and the export's cell the same text, with numbers and dates typed.
 */
export function customColumns<Row extends { id: string }>(fields: readonly CustomField[] | undefined, context: CustomCellContext): RecordColumn<Row>[] {
  const { language } = context;
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
          const linked = linkedRecord(row, field.key);
          return linked && source ? createElement(CustomLinkName, { source, linked }) : "—";
        }
        if (field.type === "url" && typeof value === "string" && /^https?:\/\//i.test(value)) {
          return createElement("a", { href: value, target: "_blank", rel: "noopener noreferrer" }, value);
        }
        return formatCustomValue(field, value, context) ?? "—";
      },
      ...(exportType
        ? { exportType, exportValue: (row: Row) => (valueOf(row) ?? null) as string | number | null }
        : field.type === "link"
          ? {
              exportValue: (row: Row) =>
                source ? formatCustomValue(field, valueOf(row), { ...context, linkedName: linkedRecord(row, field.key)?.name ?? null }) : null,
            }
          : { exportValue: (row: Row) => formatCustomValue(field, valueOf(row), context) }),
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

/**
 * A module's list from its page's spec and its declarations: the declared columns and filters
 * the page names by key take their labels, sorts and options from their declarations; then the
 * fields drawn from their declarations (the organization's custom fields, and standard ones no
 * screen draws itself) as further columns after the module's and filters after its filters.
 * A key the module does not declare is a programming error, thrown.
 */
export function withDeclaredFields<Row extends RecordBase>(
  spec: RecordListSpec<Row>,
  declarations: ModuleDeclarations,
  context: CustomCellContext,
  words: CustomFilterWords,
): RecordListConfig<Row> {
  const { language } = context;
  const declarationOf = declarationFinder(spec.module, declarations);
  const filterOf = <Filter extends { key: string }>(filter: Filter | { key: string; declared: true }): Filter | RecordFilter => {
    if (!("declared" in filter)) return filter;
    const declared = declarationOf(filter.key);
    if (declared.type !== "choice") throw new Error(`${spec.module}.${filter.key} is no choice: a declared filter offers a choice's options`);
    return {
      key: filter.key,
      label: customLabel(declared, language),
      options: declared.options.map((option) => ({ value: option.value, label: customLabel(option, language) })),
    };
  };
  const fields = declaredFields(declarations);
  const { columns, filters, statusField, ...rest } = spec;
  return {
    ...rest,
    columns: [...listColumns(spec.module, columns, declarations, language), ...customColumns<Row>(fields, context)],
    filters: [...filters.map(filterOf), ...customFilters(fields, language, words)],
    ...(statusField ? { statusField: filterOf(statusField) as RecordFilter } : {}),
  };
}

/** A module's declared field by its key; a key the module does not declare throws. */
function declarationFinder(module: string, declarations: ModuleDeclarations) {
  return (key: string) => {
    const declared = declarations.standard.find((field) => field.key === key);
    if (!declared) throw new Error(`${module}.${key} is not a declared field`);
    return declared;
  };
}

/** A list's columns in words: a declared one with its declaration's label, sorted by its key when declared sortable. */
export function listColumns<Row>(
  module: string,
  columns: readonly ListColumn<Row>[],
  declarations: ModuleDeclarations,
  language: string | undefined,
): RecordColumn<Row>[] {
  const declarationOf = declarationFinder(module, declarations);
  return columns.map((column): RecordColumn<Row> => {
    if (!("declared" in column)) return column;
    const declared = declarationOf(column.key);
    const resolved: RecordColumn<Row> & { declared?: true } = { ...column, label: customLabel(declared, language), ...(declared.sortable ? { sort: column.key } : {}) };
    delete resolved.declared;
    return resolved;
  });
}
