/**
 * How a screen learns of others' changes: a private Supabase Realtime broadcast channel
 * (the bell: topic user:<organization_id>:<user_id>, event 'notification'; the board:
 * org:<organization_id>, event 'deals_changed') where the channel reaches SUBSCRIBED
 * (hosted Supabase), otherwise reading again on window focus and every 30 s. The local
 * stack has no Realtime server and says so in the app shell (scripts/stack/server.ts puts
 * `<meta name="supabase-realtime" content="unavailable">` in it): there the app never opens a
 * WebSocket. Where a socket cannot be reached after all, the page stops trying for
 * RETRY_AFTER_MS (no reconnect every few seconds, no stream of console errors).
 */

/** The part of a supabase-js RealtimeChannel this uses. */
export interface BroadcastChannelLike {
  on(type: "broadcast", filter: { event: string }, callback: (message: unknown) => void): unknown;
  subscribe(callback: (status: string, error?: Error) => void): unknown;
}

/** realtime: pushed by the channel; polling: read again on focus and every 30 s. */
export type Delivery = "realtime" | "polling";

export const POLL_INTERVAL_MS = 30_000;
/** How long a channel may take to subscribe before the screen stops waiting for it. */
export const SUBSCRIBE_TIMEOUT_MS = 10_000;

/** How long a page that could not reach Realtime polls before a screen tries a channel again. */
export const RETRY_AFTER_MS = 5 * 60_000;

/** The app shell's word on Realtime (scripts/stack/server.ts). */
export const REALTIME_META_NAME = "supabase-realtime";

let unreachableUntil = 0;

/**
 * Whether a screen may join a channel: not where the server said it has no Realtime, nor
 * within RETRY_AFTER_MS of a socket that could not be reached.
 */
export function realtimeAvailable(doc: Pick<Document, "querySelector"> | undefined = globalThis.document, now = Date.now()): boolean {
  if (now < unreachableUntil) return false;
  return doc?.querySelector(`meta[name="${REALTIME_META_NAME}"]`)?.getAttribute("content") !== "unavailable";
}

/** The socket could not be reached: screens poll, and join no channel before RETRY_AFTER_MS. */
export function markRealtimeUnreachable(now = Date.now()): void {
  unreachableUntil = now + RETRY_AFTER_MS;
}

/** Tests: forget an earlier unreachable socket. */
export function resetRealtimeAvailability(): void {
  unreachableUntil = 0;
}

/** The recipient's private topic, as the database broadcasts it (private.on_notification_created). */
export function notificationTopic(organizationId: string, userId: string): string {
  return `user:${organizationId}:${userId}`;
}

/** The organization's private topic: board changes (event 'deals_changed'). */
export function organizationTopic(organizationId: string): string {
  return `org:${organizationId}`;
}

/** The query options each delivery calls for. */
export function pollingOptions(delivery: Delivery): { refetchInterval: number | false; refetchOnWindowFocus: boolean } {
  return delivery === "realtime"
    ? { refetchInterval: false, refetchOnWindowFocus: false }
    : { refetchInterval: POLL_INTERVAL_MS, refetchOnWindowFocus: true };
}

interface Watch {
  channel: BroadcastChannelLike;
  event: string;
  /** A broadcast came, or the channel (re)subscribed and may have missed some: read again. */
  onChange(): void;
  onDelivery(delivery: Delivery): void;
  /** Leaves the channel (supabase.removeChannel). */
  remove(): void;
  /** The channel failed or timed out before it ever subscribed (after remove). */
  onGiveUp?(): void;
  timeoutMs?: number;
}

/**
 * Listens on the channel and reports the delivery: realtime while it is SUBSCRIBED,
 * polling otherwise. A channel that fails or times out before it ever subscribed is left
 * (no Realtime here: no retries every few seconds); one that drops after subscribing is
 * kept, supabase-js rejoins it, and the bell polls meanwhile. Returns the clean-up.
 */
export function watchBroadcasts({ channel, event, onChange, onDelivery, remove, onGiveUp, timeoutMs = SUBSCRIBE_TIMEOUT_MS }: Watch): () => void {
  let subscribed = false;
  let removed = false;
  const leave = () => {
    if (removed) return;
    removed = true;
    remove();
  };
  const giveUp = () => {
    onDelivery("polling");
    leave();
    onGiveUp?.();
  };
  const timer = setTimeout(() => {
    if (!subscribed) giveUp();
  }, timeoutMs);

  channel.on("broadcast", { event }, () => onChange());
  channel.subscribe((status) => {
    if (removed) return;
    if (status === "SUBSCRIBED") {
      subscribed = true;
      clearTimeout(timer);
      onDelivery("realtime");
      onChange();
    } else if (subscribed) {
      onDelivery("polling");
    } else {
      clearTimeout(timer);
      giveUp();
    }
  });

  return () => {
    clearTimeout(timer);
    leave();
  };
}
