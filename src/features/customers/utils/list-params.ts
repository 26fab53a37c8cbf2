/** The customer list's state on screen and what it asks `list_customers` for. */
import { pageCountOf, pageOffset, sortedBy, type SortedPage } from "@/lib/list-state.ts";

export const customerSortKeys = ["name", "created_at"] as const;
export type CustomerSortKey = (typeof customerSortKeys)[number];

/** Rows per page (the RPC allows up to 100). */
export const CUSTOMERS_PAGE_SIZE = 25;

export interface CustomerListState extends SortedPage<CustomerSortKey> {
  search: string;
}

export const initialCustomerListState: CustomerListState = { search: "", sort: "name", descending: false, page: 1 };

export interface CustomerListArgs {
  p_search: string | undefined;
  p_sort: CustomerSortKey;
  p_descending: boolean;
  p_limit: number;
  p_offset: number;
}

/** The RPC's arguments for a state: a blank search is no search, the page becomes an offset. */
export function customerListArgs(state: CustomerListState): CustomerListArgs {
  const search = state.search.trim();
  return {
    p_search: search === "" ? undefined : search,
    p_sort: state.sort,
    p_descending: state.descending,
    p_limit: CUSTOMERS_PAGE_SIZE,
    p_offset: pageOffset(state.page, CUSTOMERS_PAGE_SIZE),
  };
}

export function sortCustomersBy(state: CustomerListState, column: CustomerSortKey): CustomerListState {
  return sortedBy(state, column, column === "created_at");
}

export function customerPageCount(total: number): number {
  return pageCountOf(total, CUSTOMERS_PAGE_SIZE);
}

/**
 * Query keys: the signed-in user's id first (signing in again or binding the session drops
 * them), then the organization the customers belong to.
 */
export const customerKeys = {
  all: (sessionUserId: string, organizationId: string) => ["users", sessionUserId, "customers", organizationId] as const,
  list: (sessionUserId: string, organizationId: string, args: CustomerListArgs) =>
    [...customerKeys.all(sessionUserId, organizationId), "list", args] as const,
};
