import { describe, expect, it, vi } from "vitest";
import { createSessionAwareFetch } from "./supabase-fetch.ts";

const publishableKey = "sb_publishable_test";
const origin = "http://127.0.0.1:54321";

function setUp(status: number) {
  const onUnauthorized = vi.fn();
  const baseFetch = vi.fn(async () => new Response("{}", { status }));
  const sessionAwareFetch = createSessionAwareFetch({ fetch: baseFetch, publishableKey, onUnauthorized });
  return { onUnauthorized, baseFetch, sessionAwareFetch };
}

const signedIn = { headers: { Authorization: "Bearer eyJhbGciOi.user.token", apikey: publishableKey } };
const signedOut = { headers: { Authorization: `Bearer ${publishableKey}`, apikey: publishableKey } };

describe("createSessionAwareFetch", () => {
  it.each([`${origin}/rest/v1/rpc/get_current_user_context`, `${origin}/functions/v1/current-user`])(
    "reports a 401 to a signed-in request to %s",
    async (url) => {
      const { onUnauthorized, sessionAwareFetch } = setUp(401);
      const response = await sessionAwareFetch(url, signedIn);
      expect(response.status).toBe(401);
      expect(onUnauthorized).toHaveBeenCalledTimes(1);
    },
  );

  it("reads the headers of a Request object too", async () => {
    const { onUnauthorized, sessionAwareFetch } = setUp(401);
    await sessionAwareFetch(new Request(`${origin}/rest/v1/customers`, signedIn));
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it("leaves Auth's endpoints alone (a refused sign-in or refresh is not a 401 to act on)", async () => {
    const { onUnauthorized, sessionAwareFetch } = setUp(401);
    await sessionAwareFetch(`${origin}/auth/v1/token?grant_type=password`, signedIn);
    await sessionAwareFetch(`${origin}/auth/v1/user`, signedIn);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it("leaves signed-out requests alone", async () => {
    const { onUnauthorized, sessionAwareFetch } = setUp(401);
    await sessionAwareFetch(`${origin}/rest/v1/rpc/secure_login_prepare_auth`, signedOut);
    await sessionAwareFetch(`${origin}/rest/v1/rpc/secure_login_prepare_auth`, { headers: { apikey: publishableKey } });
    expect(onUnauthorized).not.toHaveBeenCalled();
  });

  it.each([200, 403, 500])("passes a %s through without signing out", async (status) => {
    const { onUnauthorized, sessionAwareFetch, baseFetch } = setUp(status);
    const response = await sessionAwareFetch(`${origin}/rest/v1/rpc/x`, signedIn);
    expect(response.status).toBe(status);
    expect(baseFetch).toHaveBeenCalledWith(`${origin}/rest/v1/rpc/x`, signedIn);
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});
