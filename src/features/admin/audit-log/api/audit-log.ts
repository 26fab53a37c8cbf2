import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { auditFilterArgs, type AuditFilters } from "../utils/filters.ts";
import { AUDIT_LOG_PAGE_SIZE, nextBeforeId } from "../utils/paging.ts";
import { auditLogSchema, type AuditEntry } from "./schemas.ts";

export const auditLogKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "audit-log"),
  filtered: (scope: OrganizationScope, filters: AuditFilters) => [...auditLogKeys.all(scope), filters] as const,
};

async function getAuditLogPage(filters: AuditFilters, beforeId: number | null): Promise<AuditEntry[]> {
  const args = { p_limit: AUDIT_LOG_PAGE_SIZE, ...auditFilterArgs(filters), ...(beforeId === null ? {} : { p_before_id: beforeId }) };
  return (await rpc("get_audit_log", args, auditLogSchema)).entries;
}

/** The audit log, filtered on the server (who, action, dates), one page after another. */
export function auditLogQueryOptions(scope: OrganizationScope, filters: AuditFilters = {}) {
  return infiniteQueryOptions({
    queryKey: auditLogKeys.filtered(scope, filters),
    queryFn: ({ pageParam }) => getAuditLogPage(filters, pageParam),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => nextBeforeId(page),
    placeholderData: keepPreviousData,
  });
}

export function useAuditLog(scope: OrganizationScope, filters: AuditFilters = {}) {
  return useInfiniteQuery(auditLogQueryOptions(scope, filters));
}
