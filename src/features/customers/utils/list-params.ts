/** The customer list's state on screen and what it asks `list_customers` for. */
import { pageCountOf, pageOffset, sortedBy, type SortedPage } from "@/lib/list-state.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";

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

/** Query keys of the module, under the session's organization. */
export const customerKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "customers"),
  list: (scope: OrganizationScope, args: CustomerListArgs) => [...customerKeys.all(scope), "list", args] as const,
};
