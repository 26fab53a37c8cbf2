import { useEffect, useRef, useState } from "react";
import { markRealtimeUnreachable, realtimeAvailable, watchBroadcasts, type BroadcastChannelLike, type Delivery } from "@/lib/realtime.ts";
import { supabase } from "@/lib/supabase.ts";

/**
 * Joins a private Realtime topic and calls onChange for each broadcast of the event (and
 * when the channel subscribes, since it may have missed some). Says how the screen learns
 * of changes: "realtime" once subscribed, "polling" until then and wherever it cannot be
 * (src/lib/realtime.ts decides). No topic (no organization yet), or no Realtime here (the
 * local stack): polling, and no channel at all.
 */
export function useBroadcastRefresh(topic: string | null, event: string, onChange: () => void): Delivery {
  const [delivery, setDelivery] = useState<Delivery>("polling");
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  useEffect(() => {
    if (!topic || !realtimeAvailable()) return;
    const channel = supabase.channel(topic, { config: { private: true } });
    return watchBroadcasts({
      channel: channel as unknown as BroadcastChannelLike,
      event,
      onChange: () => latest.current(),
      onDelivery: setDelivery,
      remove: () => void supabase.removeChannel(channel),
      onGiveUp: () => {
        // A join the server refused (socket up) concerns this channel only; a socket that
        // cannot be reached would otherwise reconnect every few seconds: close it, and let
        // the next screens poll without trying.
        if (supabase.realtime.isConnected()) return;
        markRealtimeUnreachable();
        void supabase.realtime.disconnect();
      },
    });
  }, [topic, event]);
  return delivery;
}
