/** A record list's state on screen, what it asks `list_<module>` for, and its saved-view form. */
import { pageOffset } from "@/lib/list-state.ts";
import type { Json } from "@/types/database.types.ts";
import type { RecordListArgs, ViewDefinition } from "./record-api.ts";
import type { RecordFilter, RecordPickerFilter, RecordRangeFilter } from "./record-config.ts";

export interface RecordListState {
  search: string;
  /** Column → value; an empty value is no filter. */
  filters: Record<string, string>;
  sort: string;
  descending: boolean;
  /** 1-based. */
  page: number;
  /** The columns shown, in the module's order. */
  columns: string[];
}

/** Exact totals stop here (private.record_list): beyond it the list says "10,000+". */
export const TOTAL_CAP = 10_000;

/** A filter's state (one text) as list_<module> takes it. */
export type FilterQuery = (value: string) => Json;

/** A range filter's two ends in the list's state, one text ("from~to"; either end may be empty). */
export function rangeValue(from: string, to: string): string {
  return from.trim() === "" && to.trim() === "" ? "" : `${from.trim()}~${to.trim()}`;
}

/** A range filter's state split into its two ends. */
export function rangeEnds(value: string | undefined): { from: string; to: string } {
  const [from = "", to = ""] = (value ?? "").split("~");
  return { from, to };
}

/** A range filter's state as list_<module> takes it: {"from", "to"}, numbers as numbers, an empty or unreadable end left out. */
export function rangeQuery(kind: RecordRangeFilter["range"], value: string): Json {
  const { from, to } = rangeEnds(value);
  const end = (text: string): Json | undefined => {
    if (text === "") return undefined;
    if (kind === "date") return /^\d{4}-\d{2}-\d{2}$/.test(text) ? text : undefined;
    const number = Number(text.replace(",", "."));
    return Number.isFinite(number) ? number : undefined;
  };
  const ends = { from: end(from), to: end(to) };
  return Object.fromEntries(Object.entries(ends).filter((entry): entry is [string, Json] => entry[1] !== undefined));
}

/** How each filter that does not send its state as is sends it (a range its ends, "yes" [true]...). */
export function filterQueries(filters: readonly (RecordFilter | RecordPickerFilter | RecordRangeFilter)[]): Record<string, FilterQuery> {
  return Object.fromEntries(
    filters.flatMap((filter): [string, FilterQuery][] => {
      if ("range" in filter) return [[filter.key, (value) => rangeQuery(filter.range, value)]];
      if ("options" in filter && filter.query) return [[filter.key, filter.query]];
      return [];
    }),
  );
}

/**
 * What the list asks for: the person's search and filters (each as its filter sends it), with
 * the page's fixed filters (base) over them.
 */
export function recordListArgs(
  state: RecordListState,
  pageSize: number,
  base: Record<string, Json> = {},
  queries: Readonly<Record<string, FilterQuery>> = {},
): RecordListArgs {
  const search = state.search.trim();
  const filters = Object.fromEntries(
    Object.entries(state.filters)
      .filter(([, value]) => value !== "")
      .map(([key, value]): [string, Json] => [key, Object.hasOwn(queries, key) ? queries[key](value) : value]),
  );
  return {
    ...(search === "" ? {} : { p_search: search }),
    p_filters: { ...filters, ...base },
    p_sort: state.sort,
    p_descending: state.descending,
    p_limit: pageSize,
    p_offset: pageOffset(state.page, pageSize),
  };
}

/** The view a user saves: what they searched, filtered, sorted and chose to see. */
export function viewOf(state: RecordListState): ViewDefinition {
  const filters = Object.fromEntries(Object.entries(state.filters).filter(([, value]) => value !== ""));
  return {
    ...(state.search.trim() === "" ? {} : { search: state.search.trim() }),
    filters,
    sort: state.sort,
    descending: state.descending,
    columns: state.columns,
  };
}

/** The keys the list has now: its columns, filters and sort keys (custom fields deleted since a view was saved are not among them). */
export interface KnownKeys {
  columns: ReadonlySet<string>;
  filters: ReadonlySet<string>;
  sorts: ReadonlySet<string>;
}

/**
 * A saved view applied to the list (what it leaves out falls back to the module's defaults).
 * A column, filter or sort the list no longer has (a custom field deleted since) is dropped, so
 * the view still opens with the rest.
 */
export function applyView(view: ViewDefinition, initial: RecordListState, known: KnownKeys): RecordListState {
  const filters = Object.fromEntries(Object.entries(view.filters ?? {}).filter(([key]) => known.filters.has(key)));
  const columns = (view.columns ?? []).filter((key) => known.columns.has(key));
  const sorted = view.sort !== undefined && known.sorts.has(view.sort);
  return {
    search: view.search ?? "",
    filters,
    sort: sorted ? view.sort! : initial.sort,
    descending: sorted ? (view.descending ?? initial.descending) : initial.descending,
    page: 1,
    columns: columns.length > 0 ? columns : initial.columns,
  };
}

/** How many pages to offer: a capped total offers the pages up to the cap. */
export function recordPageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.min(total, TOTAL_CAP) / pageSize));
}
