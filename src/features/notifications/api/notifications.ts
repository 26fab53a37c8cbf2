/**
 * The bell's own calls, about the signed-in member in their session's organization: the
 * unread count and the cache keys. The list and the preferences (loaded with the panel)
 * are in notification-list.ts.
 */
import { useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { useOrganizationScope, type OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { pollingOptions, type Delivery } from "@/lib/realtime.ts";

export const notificationSchema = z.object({
  id: z.string(),
  kind: z.string(),
  module: z.string().nullable(),
  record_id: z.string().nullable(),
  title: z.string().nullable(),
  actor_id: z.string().nullable(),
  actor_name: z.string().nullable(),
  created_at: z.string(),
  read_at: z.string().nullable(),
});
export type AppNotification = z.infer<typeof notificationSchema>;

export const unreadSchema = z.object({ unread: z.number() });

export const notificationKeys = {
  all: (scope: OrganizationScope) => queryKeys.organization(scope, "notifications"),
  unread: (scope: OrganizationScope) => [...notificationKeys.all(scope), "unread"] as const,
  list: (scope: OrganizationScope) => [...notificationKeys.all(scope), "list"] as const,
  preferences: (scope: OrganizationScope) => [...notificationKeys.all(scope), "preferences"] as const,
};

/** How many unread notifications there are; read again as the delivery calls for. */
export function useUnreadCount(delivery: Delivery) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: notificationKeys.unread(scope),
    queryFn: async () => (await rpc("get_unread_notification_count", {}, unreadSchema)).unread,
    enabled: scope.organizationId !== "none",
    ...pollingOptions(delivery),
  });
}
