/** A record list's state on screen, what it asks `list_<module>` for, and its saved-view form. */
import { pageOffset } from "@/lib/list-state.ts";
import type { Json } from "@/types/database.types.ts";
import type { RecordListArgs, ViewDefinition } from "./record-api.ts";

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

/** What the list asks for: the person's search and filters, with the page's fixed filters (base) over them. */
export function recordListArgs(state: RecordListState, pageSize: number, base: Record<string, Json> = {}): RecordListArgs {
  const search = state.search.trim();
  const filters = Object.fromEntries(Object.entries(state.filters).filter(([, value]) => value !== ""));
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

/** A saved view applied to the list (what it leaves out falls back to the module's defaults). */
export function applyView(view: ViewDefinition, initial: RecordListState): RecordListState {
  return {
    search: view.search ?? "",
    filters: view.filters ?? {},
    sort: view.sort ?? initial.sort,
    descending: view.descending ?? initial.descending,
    page: 1,
    columns: view.columns && view.columns.length > 0 ? view.columns : initial.columns,
  };
}

/** How many pages to offer: a capped total offers the pages up to the cap. */
export function recordPageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(Math.min(total, TOTAL_CAP) / pageSize));
}
