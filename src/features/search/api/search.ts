/**
 * The header's search (public.search_records): the records of every module the member may
 * view whose Turkish-folded text holds the query, a few per module, grouped in module order.
 */
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";

/** The shortest query the database searches for. */
export const minimumQueryLength = 2;

export const searchResultSchema = z.object({
  success: z.literal(true),
  groups: z.array(
    z.object({
      module: z.string(),
      items: z.array(z.object({ id: z.string(), title: z.string().nullable(), subtitle: z.string().nullable() })),
    }),
  ),
});
export type SearchGroup = z.infer<typeof searchResultSchema>["groups"][number];

/** The matches of `query` (trimmed; nothing is asked under two characters), up to `limit` per module. */
export function useRecordSearch(query: string, limit = 5) {
  const scope = useOrganizationScope();
  const trimmed = query.trim();
  return useQuery({
    queryKey: [...queryKeys.organization(scope, "search-records"), trimmed, limit] as const,
    queryFn: () => rpc("search_records", { p_query: trimmed, p_limit: limit }, searchResultSchema),
    enabled: scope.organizationId !== "none" && trimmed.length >= minimumQueryLength,
    staleTime: 10_000,
  });
}
