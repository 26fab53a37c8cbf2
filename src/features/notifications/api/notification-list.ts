/**
 * The notification panel's calls: the notifications a page at a time (newest first),
 * marking one or all read, and which kinds the member wants.
 */
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData } from "@tanstack/react-query";
import { z } from "zod";
import { rpc } from "@/lib/call-rpc.ts";
import { useOrganizationScope } from "@/session/organization-scope.ts";
import { pollingOptions, type Delivery } from "@/lib/realtime.ts";
import { notificationKeys, notificationSchema, unreadSchema } from "./notifications.ts";

const pageSchema = z.object({ notifications: z.array(notificationSchema), unread: z.number() });
type Page = z.infer<typeof pageSchema>;
const preferencesSchema = z.object({ kinds: z.array(z.string()), available: z.array(z.string()), email_digest: z.boolean() });

export const PAGE_SIZE = 20;

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
    mutationFn: ({ kinds, emailDigest }: { kinds: string[]; emailDigest: boolean }) =>
      rpc("save_notification_preferences", { p_kinds: kinds, p_email_digest: emailDigest }, preferencesSchema),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.preferences(scope), saved),
  });
}
