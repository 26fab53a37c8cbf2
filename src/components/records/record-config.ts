import type { ReactNode } from "react";
import type { z } from "zod";
import type { ModuleKey } from "@/modules/registry.ts";
import type { Json } from "@/types/database.types.ts";
import type { RecordBase } from "./record-api.ts";
import type { ExportableColumn } from "./record-export.ts";
import type { RecordMergeConfig } from "./record-merge.ts";

export interface RecordOption {
  value: string;
  label: string;
}

/**
 * A list column: one of the module's list columns (or owner_name, created_at, updated_at). What
 * an export reads of it (its key, label and export cell) is the export's ExportableColumn.
 */
export interface RecordColumn<Row> extends ExportableColumn<Row> {
  /** The sort key when the module may sort by it. */
  sort?: string;
  /** Left out until the user chooses it. */
  hidden?: boolean;
  render?(row: Row): ReactNode;
}

/**
 * A list column of one of the module's declared fields (private.module_fields): its label is
 * the declaration's in the interface's language, and it sorts by its key when declared
 * sortable (declaredColumn).
 */
export type DeclaredColumn<Row> = Omit<RecordColumn<Row>, "label" | "sort"> & { declared: true };

/** A column as a module's list names it: declared (its label and sort from the declaration), or its own. */
export type ListColumn<Row> = RecordColumn<Row> | DeclaredColumn<Row>;

/** A declared field's column, with what the module adds (its cell, its export cell, hidden). */
export function declaredColumn<Row>(key: string, extra: Omit<DeclaredColumn<Row>, "key" | "declared"> = {}): DeclaredColumn<Row> {
  return { key, declared: true, ...extra };
}

/** A select filter on one of the module's filterable columns. */
export interface RecordFilter {
  key: string;
  label: string;
  options: RecordOption[];
  /** What list_<module> takes for the chosen option when not the option's value itself (e.g. [true] for "yes"). */
  query?(value: string): Json;
}

/** A select filter on a declared choice field: its label and options (labels in the interface's language) are the declaration's. */
export interface DeclaredFilter {
  key: string;
  declared: true;
}

export function declaredFilter(key: string): DeclaredFilter {
  return { key, declared: true };
}

/** A from–to filter on a number or date column: list_<module> takes {"from", "to"} (either end may be left out). */
export interface RecordRangeFilter {
  key: string;
  label: string;
  range: "number" | "date";
}

/** How a record picker finds and names a record of a module. */
export interface RecordPickerSource {
  module: ModuleKey;
  /** get_<entity>, to name the chosen record. */
  entity: string;
  /** The list column the choices are sorted by (and, unless labelOf says otherwise, named by). */
  titleColumn: string;
  /** Further list columns the name is made of. */
  labelColumns?: readonly string[];
  labelOf?(row: Record<string, string | null>): string;
}

/** A filter on a link column (e.g. customer_id): a record picked by name, searched among those the role may see. */
export interface RecordPickerFilter {
  key: string;
  label: string;
  picker: RecordPickerSource;
}

/**
 * How one module's list looks and behaves, as its page names it: columns and filters of its
 * declared fields by their keys (their labels, sorts and options come from the declarations),
 * the others with their own words. The record kit resolves it (RecordListPage) and does the rest.
 */
export interface RecordListSpec<Row extends RecordBase> extends Omit<RecordListConfig<Row>, "columns" | "filters" | "statusField"> {
  columns: ListColumn<Row>[];
  filters: (RecordFilter | RecordPickerFilter | RecordRangeFilter | DeclaredFilter)[];
  statusField?: RecordFilter | DeclaredFilter;
}

/** A module's list as the record kit draws it: every label and option in words. */
export interface RecordListConfig<Row extends RecordBase> {
  module: ModuleKey;
  row: z.ZodType<Row>;
  /** The first column is the record's title, always shown, a link to its page. */
  columns: RecordColumn<Row>[];
  filters: (RecordFilter | RecordPickerFilter | RecordRangeFilter)[];
  /** Filters the page around the list always applies (e.g. {"customer_id": {"is_null": false}}: linked to any customer). */
  baseFilters?: Record<string, Json>;
  /** Filters that make the list what it is rather than narrow it (quotes: the latest revision of each): an empty answer is "none yet". */
  definingFilters?: Record<string, Json>;
  defaultSort: string;
  defaultDescending: boolean;
  /** The field a bulk status change sets, with its values. */
  statusField?: RecordFilter;
  pageSize?: number;
  title: string;
  description: string;
  searchPlaceholder: string;
  emptyTitle: string;
  emptyDescription: string;
  loadError: string;
  /** The table's accessible name. */
  listLabel: string;
  /** The count line ("200 customers in total"; capped: "10.000+ customers"), given the count already formatted. */
  totalText?(count: string, capped: boolean): string;
  noMatch?: string;
  icon: ReactNode;
  titleOf(row: Row): string;
  detailPath(row: Row): string;
  /** The page around the list shows the title (e.g. a module with several views); the list shows none. */
  headless?: boolean;
  /** Buttons beside the title (e.g. a new record). */
  actions?: ReactNode;
  /** With exactly two rows selected, the bulk bar offers to merge them (to whoever may edit). */
  merge?: RecordMergeConfig<RecordBase>;
}
