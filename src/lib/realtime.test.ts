import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  markRealtimeUnreachable,
  notificationTopic,
  organizationTopic,
  pollingOptions,
  realtimeAvailable,
  resetRealtimeAvailability,
  RETRY_AFTER_MS,
  watchBroadcasts,
  type BroadcastChannelLike,
  type Delivery,
} from "./realtime.ts";

/** A stand-in channel: the test says which statuses it reports and when a broadcast comes. */
function fakeChannel() {
  let status: (status: string) => void = () => {};
  const listeners: { event: string; callback: (message: unknown) => void }[] = [];
  const channel: BroadcastChannelLike = {
    on(_type, filter, callback) {
      listeners.push({ event: filter.event, callback });
      return channel;
    },
    subscribe(callback) {
      status = callback;
      return channel;
    },
  };
  return {
    channel,
    report: (value: string) => status(value),
    broadcast: (event: string) => listeners.filter((listener) => listener.event === event).forEach((listener) => listener.callback({})),
  };
}

function watch() {
  const fake = fakeChannel();
  const deliveries: Delivery[] = [];
  const onChange = vi.fn();
  const remove = vi.fn();
  const onGiveUp = vi.fn();
  const stop = watchBroadcasts({ channel: fake.channel, event: "notification", onChange, onDelivery: (delivery) => deliveries.push(delivery), remove, onGiveUp });
  return { ...fake, deliveries, onChange, remove, onGiveUp, stop };
}

describe("realtime or polling", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("names the recipient's private topic as the database broadcasts it", () => {
    expect(notificationTopic("org-1", "user-2")).toBe("user:org-1:user-2");
    expect(organizationTopic("org-1")).toBe("org:org-1");
  });

  it("polls every 30 s and on focus unless the channel pushes", () => {
    expect(pollingOptions("polling")).toEqual({ refetchInterval: 30_000, refetchOnWindowFocus: true });
    expect(pollingOptions("realtime")).toEqual({ refetchInterval: false, refetchOnWindowFocus: false });
  });

  it("a channel that subscribes delivers: no polling, and each broadcast reads again", () => {
    const watched = watch();
    watched.report("SUBSCRIBED");
    expect(watched.deliveries).toEqual(["realtime"]);
    // Reads once on subscribing (anything sent before), then once per broadcast of its event.
    expect(watched.onChange).toHaveBeenCalledTimes(1);
    watched.broadcast("notification");
    watched.broadcast("deals_changed");
    expect(watched.onChange).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(60_000);
    expect(watched.deliveries).toEqual(["realtime"]);
    expect(watched.remove).not.toHaveBeenCalled();
  });

  it("a channel that fails before subscribing (no Realtime server) is left, and the bell polls", () => {
    const watched = watch();
    watched.report("CHANNEL_ERROR");
    expect(watched.deliveries).toEqual(["polling"]);
    expect(watched.remove).toHaveBeenCalledTimes(1);
    expect(watched.onGiveUp).toHaveBeenCalledTimes(1);
    // Later reports of the channel it left change nothing.
    watched.report("SUBSCRIBED");
    expect(watched.deliveries).toEqual(["polling"]);
    watched.stop();
    expect(watched.remove).toHaveBeenCalledTimes(1);
  });

  it("a channel that never answers is given up after the time-out", () => {
    const watched = watch();
    vi.advanceTimersByTime(9_999);
    expect(watched.deliveries).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(watched.deliveries).toEqual(["polling"]);
    expect(watched.remove).toHaveBeenCalledTimes(1);
    expect(watched.onGiveUp).toHaveBeenCalledTimes(1);
  });

  it("a subscribed channel that drops polls until it is back, and is kept for supabase-js to rejoin", () => {
    const watched = watch();
    watched.report("SUBSCRIBED");
    watched.report("CHANNEL_ERROR");
    expect(watched.deliveries).toEqual(["realtime", "polling"]);
    expect(watched.remove).not.toHaveBeenCalled();
    expect(watched.onGiveUp).not.toHaveBeenCalled();
    watched.report("SUBSCRIBED");
    expect(watched.deliveries).toEqual(["realtime", "polling", "realtime"]);
    expect(watched.onChange).toHaveBeenCalledTimes(2);
  });

  it("cleaning up leaves the channel once and stops the time-out", () => {
    const watched = watch();
    watched.stop();
    expect(watched.remove).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(20_000);
    expect(watched.deliveries).toEqual([]);
    expect(watched.remove).toHaveBeenCalledTimes(1);
  });
});

/** A stand-in document whose head has (or lacks) the app shell's word on Realtime. */
function shell(content: string | null): Pick<Document, "querySelector"> {
  return {
    querySelector: (selector: string) =>
      content !== null && selector === 'meta[name="supabase-realtime"]' ? ({ getAttribute: () => content } as unknown as Element) : null,
  };
}

describe("whether a screen joins a channel at all", () => {
  afterEach(() => resetRealtimeAvailability());

  it("joins where the shell says nothing (hosted Supabase), never where it says Realtime is unavailable (the local stack)", () => {
    expect(realtimeAvailable(shell(null))).toBe(true);
    expect(realtimeAvailable(shell("unavailable"))).toBe(false);
    expect(realtimeAvailable(shell("available"))).toBe(true);
    expect(realtimeAvailable(undefined)).toBe(true);
  });

  it("after a socket that could not be reached, polls and tries again only after five minutes", () => {
    const now = 1_000_000;
    markRealtimeUnreachable(now);
    expect(realtimeAvailable(shell(null), now)).toBe(false);
    expect(realtimeAvailable(shell(null), now + RETRY_AFTER_MS - 1)).toBe(false);
    expect(realtimeAvailable(shell(null), now + RETRY_AFTER_MS)).toBe(true);
    expect(RETRY_AFTER_MS).toBe(300_000);
  });
});
