import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { supabase } from "@/lib/supabase.ts";
import { useCurrentUserContext } from "@/session/current-user-context.ts";
import { useSignedInSession } from "@/session/session-context.ts";
import { notificationTopic, watchBroadcasts, type BroadcastChannelLike, type Delivery } from "../utils/realtime.ts";
import { notificationKeys } from "./notifications.ts";

/**
 * Joins the member's private notification channel (user:<organization_id>:<user_id>) and
 * says how the bell learns of new notifications: "realtime" once the channel is
 * subscribed, "polling" until then and wherever it cannot be (utils/realtime.ts decides).
 */
export function useNotificationDelivery(): Delivery {
  const session = useSignedInSession();
  const userId = session.user.id;
  const organizationId = useCurrentUserContext(userId).data?.organization?.id;
  const queryClient = useQueryClient();
  const [delivery, setDelivery] = useState<Delivery>("polling");

  useEffect(() => {
    if (!organizationId) return;
    const channel = supabase.channel(notificationTopic(organizationId, userId), { config: { private: true } });
    return watchBroadcasts({
      channel: channel as unknown as BroadcastChannelLike,
      event: "notification",
      onChange: () => void queryClient.invalidateQueries({ queryKey: notificationKeys.all({ sessionUserId: userId, organizationId }) }),
      onDelivery: setDelivery,
      remove: () => void supabase.removeChannel(channel),
    });
  }, [organizationId, userId, queryClient]);

  return delivery;
}
