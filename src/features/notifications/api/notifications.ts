/**
 * The bell's calls, all about the signed-in member in their session's organization: the
 * unread count, the notifications a page at a time (newest first), marking one or all read,
 * and which kinds they want.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { useOrganizationScope, type OrganizationScope } from "@/session/organization-scope.ts";
import { queryKeys } from "@/session/query-keys.ts";
import { pollingOptions, type Delivery } from "../utils/realtime.ts";

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

const pageSchema = z.object({ notifications: z.array(notificationSchema), unread: z.number() });
type Page = z.infer<typeof pageSchema>;
const unreadSchema = z.object({ unread: z.number() });
const preferencesSchema = z.object({ kinds: z.array(z.string()), available: z.array(z.string()) });

export const PAGE_SIZE = 20;

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

/** The notifications, newest first, PAGE_SIZE at a time (older ones before the last one's time). */
export function useNotificationList(enabled: boolean, delivery: Delivery) {
  const scope = useOrganizationScope();
  return useInfiniteQuery({
    queryKey: notificationKeys.list(scope),
    queryFn: ({ pageParam }) => rpc("get_notifications", { p_limit: PAGE_SIZE, p_before: pageParam ?? undefined }, pageSchema),
    initialPageParam: null as string | null,
    getNextPageParam: (last: Page) => (last.notifications.length < PAGE_SIZE ? undefined : last.notifications.at(-1)?.created_at),
    enabled,
    ...pollingOptions(delivery),
  });
}

/** Marks some read (or, with no ids, all); the count and the list follow at once. */
export function useMarkRead() {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: string[] | "all") =>
      ids === "all"
        ? rpc("mark_all_notifications_read", {}, unreadSchema)
        : rpc("mark_notifications_read", { p_ids: ids }, unreadSchema),
    onSuccess: ({ unread }, ids) => {
      const readAt = new Date().toISOString();
      queryClient.setQueryData(notificationKeys.unread(scope), unread);
      queryClient.setQueryData<InfiniteData<Page>>(notificationKeys.list(scope), (data) =>
        data && {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            unread,
            notifications: page.notifications.map((notification) =>
              notification.read_at === null && (ids === "all" || ids.includes(notification.id)) ? { ...notification, read_at: readAt } : notification,
            ),
          })),
        },
      );
    },
  });
}

/** Reads everything about notifications again (a broadcast came, or the channel subscribed). */
export function useRefreshNotifications() {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all(scope) });
}

export function useNotificationPreferences(enabled: boolean) {
  const scope = useOrganizationScope();
  return useQuery({
    queryKey: notificationKeys.preferences(scope),
    queryFn: () => rpc("get_notification_preferences", {}, preferencesSchema),
    enabled,
  });
}

export function useSaveNotificationPreferences() {
  const scope = useOrganizationScope();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (kinds: string[]) => rpc("save_notification_preferences", { p_kinds: kinds }, preferencesSchema),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.preferences(scope), saved),
  });
}
