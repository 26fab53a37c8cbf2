/** The list's state on screen and what it asks `get_organization_users` for. */
import { pageCountOf, pageOffset, sortedBy, type SortedPage } from "@/lib/list-state.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";

export const userStatuses = ["active", "inactive", "locked"] as const;
export type UserStatus = (typeof userStatuses)[number];

export const sortKeys = ["name", "email", "role", "last_login_at", "created_at"] as const;
export type SortKey = (typeof sortKeys)[number];

/** Rows per page (the RPC allows up to 100). */
export const PAGE_SIZE = 25;

export interface UserListState extends SortedPage<SortKey> {
  search: string;
  role: string | null;
  status: UserStatus | null;
}

export const initialListState: UserListState = {
  search: "",
  role: null,
  status: null,
  sort: "name",
  descending: false,
  page: 1,
};

export interface UserListArgs {
  p_search: string | null;
  p_role: string | null;
  p_status: UserStatus | null;
  p_sort: SortKey;
  p_descending: boolean;
  p_limit: number;
  p_offset: number;
}

/** The RPC's arguments for a state: a blank search is no search, the page becomes an offset. */
export function userListArgs(state: UserListState): UserListArgs {
  const search = state.search.trim();
  return {
    p_search: search === "" ? null : search,
    p_role: state.role,
    p_status: state.status,
    p_sort: state.sort,
    p_descending: state.descending,
    p_limit: PAGE_SIZE,
    p_offset: pageOffset(state.page, PAGE_SIZE),
  };
}

export function sortBy(state: UserListState, column: SortKey): UserListState {
  return sortedBy(state, column, column === "last_login_at" || column === "created_at");
}

/** A new search or filter starts again from the first page. */
export function withFilter(state: UserListState, change: Partial<Pick<UserListState, "search" | "role" | "status">>) {
  return { ...state, ...change, page: 1 };
}

export function pageCount(total: number): number {
  return pageCountOf(total, PAGE_SIZE);
}

export function isUserStatus(value: string | null): value is UserStatus {
  return userStatuses.includes(value as UserStatus);
}

/** This screen's query keys, all under one organization-scoped key that a write invalidates. */
export const adminUserKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "admin-users"),
  list: (scope: OrganizationScope, args: UserListArgs) => [...adminUserKeys.all(scope), "list", args] as const,
  loginAttempts: (scope: OrganizationScope, userId: string) => [...adminUserKeys.all(scope), "login-attempts", userId] as const,
  recordAnalysis: (scope: OrganizationScope, userId: string) => [...adminUserKeys.all(scope), "records", userId] as const,
  transferCandidates: (scope: OrganizationScope, excludeUserId: string) =>
    [...adminUserKeys.all(scope), "transfer-candidates", excludeUserId] as const,
};
