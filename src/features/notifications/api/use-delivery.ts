import { useQueryClient } from "@tanstack/react-query";
import { notificationTopic, type Delivery } from "@/lib/realtime.ts";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { useBroadcastRefresh } from "@/session/use-broadcast-refresh.ts";
import { notificationKeys } from "./notifications.ts";

/**
 * The member's private notification channel (user:<organization_id>:<user_id>): how the
 * bell learns of new notifications, "realtime" once the channel is subscribed, "polling"
 * until then and wherever it cannot be.
 */
export function useNotificationDelivery(): Delivery {
  const session = useSignedInSession();
  const userId = session.user.id;
  const organizationId = useCurrentUserContext(userId).data?.organization?.id;
  const queryClient = useQueryClient();
  return useBroadcastRefresh(organizationId ? notificationTopic(organizationId, userId) : null, "notification", () => {
    if (organizationId) void queryClient.invalidateQueries({ queryKey: notificationKeys.all({ sessionUserId: userId, organizationId }) });
  });
}
