import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { stubBrowserPage } from "./testing/browser-stubs.ts";

// The module reads the page's origin and localStorage when it loads.
stubBrowserPage();
const fetchMock = vi.fn<typeof fetch>();
vi.stubGlobal("fetch", fetchMock);

let client: typeof import("./auth-client.ts");
beforeAll(async () => {
  client = await import("./auth-client.ts");
});
afterEach(() => {
  fetchMock.mockReset();
  vi.restoreAllMocks();
});

const signedIn = async () =>
  vi.spyOn(await client.loadAuthClient(), "getSession").mockResolvedValue({ data: { session: { access_token: "user-token" } }, error: null } as never);

describe("postRpc (the login's RPCs without supabase-js)", () => {
  it("posts the arguments to the Data API with the publishable key when signed out", async () => {
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ success: true }), { status: 200 }));
    await expect(client.postRpc("secure_login_prepare_auth", { p_email: "a@b.test" })).resolves.toEqual({ success: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe("https://crm.test/rest/v1/rpc/secure_login_prepare_auth");
    expect(init?.method).toBe("POST");
    expect(init?.body).toBe(JSON.stringify({ p_email: "a@b.test" }));
    const headers = new Headers(init?.headers);
    expect(headers.get("apikey")).toBe(client.publishableKey);
    expect(headers.get("Authorization")).toBe(`Bearer ${client.publishableKey}`);
  });

  it("sends the session's access token once signed in", async () => {
    await signedIn();
    fetchMock.mockResolvedValue(new Response(JSON.stringify({ success: true }), { status: 200 }));
    await client.postRpc("bind_session_organization", { p_organization_id: "x" });
    expect(new Headers(fetchMock.mock.calls[0]?.[1]?.headers).get("Authorization")).toBe("Bearer user-token");
  });

  it("answers a refusal in the envelope as data (the flow reads it)", async () => {
    const refusal = { success: false, error: "Invalid credentials", code: "invalid_credentials" };
    fetchMock.mockResolvedValue(new Response(JSON.stringify(refusal), { status: 200 }));
    await expect(client.postRpc("secure_login_prepare_auth", {})).resolves.toEqual(refusal);
  });

  it("reports no answer as status 0 and an HTTP error with the server's message", async () => {
    fetchMock.mockRejectedValueOnce(new TypeError("Failed to fetch"));
    await expect(client.postRpc("update_user_last_login", {})).rejects.toMatchObject({ status: 0, message: "TypeError: Failed to fetch" });
    fetchMock.mockResolvedValueOnce(new Response(JSON.stringify({ message: "function not found" }), { status: 404 }));
    await expect(client.postRpc("update_user_last_login", {})).rejects.toMatchObject({ status: 404, message: "function not found" });
  });

  it("signs out on a 401 to a signed-in call, not to a signed-out one", async () => {
    const unauthorized = vi.fn();
    const stop = client.onUnauthorizedResponse(unauthorized);
    fetchMock.mockImplementation(async () => new Response("{}", { status: 401 }));
    await expect(client.postRpc("update_user_last_login", {})).rejects.toMatchObject({ status: 401 });
    expect(unauthorized).not.toHaveBeenCalled();
    await signedIn();
    await expect(client.postRpc("update_user_last_login", {})).rejects.toMatchObject({ status: 401 });
    expect(unauthorized).toHaveBeenCalledOnce();
    stop();
  });
});
