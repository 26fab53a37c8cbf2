import { beforeAll, describe, expect, it, vi } from "vitest";
import { storageEventOf, stubBrowserPage } from "./testing/browser-stubs.ts";

// The module reads the page's origin and localStorage when it loads.
const store = stubBrowserPage();
const fetchMock = vi.fn<typeof fetch>(async () => new Response("{}", { status: 200 }));
vi.stubGlobal("fetch", fetchMock);

// A fake Auth client, counted: the real one is @supabase/auth-js in a chunk of its own.
const { created, listeners, fakeClient } = vi.hoisted(() => {
  const listeners: ((event: string, session: unknown) => void)[] = [];
  const fakeClient = {
    getSession: async () => ({ data: { session: { access_token: "user-token" } }, error: null }),
    onAuthStateChange: (callback: (event: string, session: unknown) => void) => {
      listeners.push(callback);
      return { data: { subscription: { unsubscribe: () => listeners.splice(listeners.indexOf(callback), 1) } } };
    },
    refreshSession: async () => ({}),
    signOut: async () => ({ error: null }),
  };
  return { created: { count: 0 }, listeners, fakeClient };
});
vi.mock("./auth-client-instance.ts", () => ({
  createAuthClient: () => {
    created.count += 1;
    return fakeClient;
  },
}));

let client: typeof import("./auth-client.ts");
beforeAll(async () => {
  client = await import("./auth-client.ts");
});

describe("Auth, loaded when first needed (the first screen does without it)", () => {
  it("is not loaded for a signed-out call, nor to listen; a listener dropped before the load never attaches", async () => {
    await client.postRpc("secure_login_prepare_auth", {});
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get("Authorization")).toBe(`Bearer ${client.publishableKey}`);
    const dropped = client.sessionAuth.onAuthStateChange(() => undefined);
    client.sessionAuth.onAuthStateChange(() => undefined);
    dropped.data.subscription.unsubscribe();
    expect(created.count).toBe(0);
    expect(listeners).toHaveLength(0);
  });

  it("loads once at the first need; the listeners waiting then attach, and later calls use the same client", async () => {
    await Promise.all([client.loadAuthClient(), client.loadAuthClient()]);
    expect(created.count).toBe(1);
    expect(listeners).toHaveLength(1);
    const attachedAtOnce = client.sessionAuth.onAuthStateChange(() => undefined);
    expect(listeners).toHaveLength(2);
    attachedAtOnce.data.subscription.unsubscribe();
    expect(listeners).toHaveLength(1);
    await expect(client.accessToken()).resolves.toBe("user-token");
    expect(created.count).toBe(1);
  });

  it("is loaded for a stored session even before anything else asked for it", async () => {
    vi.resetModules();
    created.count = 0;
    store.setItem(client.authStorageKey, "{}");
    const fresh = await import("./auth-client.ts");
    await expect(fresh.accessToken()).resolves.toBe("user-token");
    expect(created.count).toBe(1);
    store.clear();
  });

  it("is loaded when another tab stores a sign-in, so this signed-out page hears of it", async () => {
    vi.resetModules();
    created.count = 0;
    listeners.length = 0;
    const fresh = await import("./auth-client.ts");
    fresh.sessionAuth.onAuthStateChange(() => undefined);
    window.dispatchEvent(storageEventOf("crm.something-else", "{}"));
    window.dispatchEvent(storageEventOf(fresh.authStorageKey, null));
    expect(created.count).toBe(0);
    window.dispatchEvent(storageEventOf(fresh.authStorageKey, "{}"));
    await vi.waitFor(() => expect(listeners).toHaveLength(1));
    expect(created.count).toBe(1);
  });
});
