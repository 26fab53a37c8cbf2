import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { rpc } from "@/lib/call-rpc.ts";
import type { OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { AUDIT_LOG_PAGE_SIZE, nextBeforeId } from "../utils/paging.ts";
import { auditLogSchema, type AuditEntry } from "./schemas.ts";

export const auditLogKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "audit-log"),
};

async function getAuditLogPage(beforeId: number | null): Promise<AuditEntry[]> {
  const args = { p_limit: AUDIT_LOG_PAGE_SIZE, ...(beforeId === null ? {} : { p_before_id: beforeId }) };
  return (await rpc("get_audit_log", args, auditLogSchema)).entries;
}

export function auditLogQueryOptions(scope: OrganizationScope) {
  return infiniteQueryOptions({
    queryKey: auditLogKeys.all(scope),
    queryFn: ({ pageParam }) => getAuditLogPage(pageParam),
    initialPageParam: null as number | null,
    getNextPageParam: (page) => nextBeforeId(page),
  });
}

export function useAuditLog(scope: OrganizationScope) {
  return useInfiniteQuery(auditLogQueryOptions(scope));
}
