import { FunctionsHttpError } from "@supabase/supabase-js";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { memoryStorage } from "./testing/browser-stubs.ts";
import { readRequestToken, writeRequestToken } from "./browser-storage.ts";
import { invokePrivileged, REQUEST_TOKEN_RENEW_MARGIN_MS, requestTokenHeader } from "./privileged-functions.ts";
import { RpcError } from "./rpc.ts";

const { fake } = vi.hoisted(() => ({
  fake: {
    rpc: vi.fn(),
    functions: { invoke: vi.fn() },
  },
}));
vi.mock("./supabase.ts", () => ({ supabase: fake }));

const now = new Date("2026-11-21T09:00:00Z").getTime();
const hour = 3_600_000;

let issued = 0;
function issueAnswers() {
  fake.rpc.mockImplementation(async (name: string) => {
    expect(name).toBe("issue_request_token");
    issued += 1;
    return { data: { success: true, token: `token-${issued}`, expires_at: new Date(now + hour).toISOString() }, error: null };
  });
}

const httpError = (status: number, body: unknown) =>
  new FunctionsHttpError(new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } }));

const sentTokens = () =>
  fake.functions.invoke.mock.calls.map(([, options]) => (options as { headers: Record<string, string> }).headers[requestTokenHeader]);

beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(now);
  vi.stubGlobal("localStorage", memoryStorage());
  issued = 0;
  fake.rpc.mockReset();
  fake.functions.invoke.mockReset();
  issueAnswers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe("invokePrivileged", () => {
  it("gets a token, keeps it, and sends it in the x-csrf-token header", async () => {
    fake.functions.invoke.mockResolvedValue({ data: { success: true }, error: null });
    expect(await invokePrivileged("admin-users", { action: "list" })).toEqual({ success: true });
    expect(fake.functions.invoke).toHaveBeenCalledWith("admin-users", {
      body: { action: "list" },
      headers: { "x-csrf-token": "token-1" },
    });
    expect(readRequestToken()).toEqual({ token: "token-1", expiresAt: now + hour, enabled: true });
  });

  it("reuses the kept token while it has time left", async () => {
    fake.functions.invoke.mockResolvedValue({ data: {}, error: null });
    await invokePrivileged("f");
    vi.setSystemTime(now + hour - REQUEST_TOKEN_RENEW_MARGIN_MS - 1);
    await invokePrivileged("f");
    expect(sentTokens()).toEqual(["token-1", "token-1"]);
    expect(fake.rpc).toHaveBeenCalledTimes(1);
  });

  it("renews a token near or past its hour", async () => {
    fake.functions.invoke.mockResolvedValue({ data: {}, error: null });
    await invokePrivileged("f");
    vi.setSystemTime(now + hour - REQUEST_TOKEN_RENEW_MARGIN_MS);
    await invokePrivileged("f");
    expect(sentTokens()).toEqual(["token-1", "token-2"]);
  });

  it("does not send a disabled token", async () => {
    writeRequestToken({ token: "old", expiresAt: now + hour, enabled: false });
    fake.functions.invoke.mockResolvedValue({ data: {}, error: null });
    await invokePrivileged("f");
    expect(sentTokens()).toEqual(["token-1"]);
  });

  it("disables a refused token, gets a new one and tries once more", async () => {
    writeRequestToken({ token: "stale", expiresAt: now + hour, enabled: true });
    fake.functions.invoke
      .mockResolvedValueOnce({ data: null, error: httpError(403, { success: false, error: "Invalid request token" }) })
      .mockResolvedValueOnce({ data: { success: true }, error: null });
    expect(await invokePrivileged("f")).toEqual({ success: true });
    expect(sentTokens()).toEqual(["stale", "token-1"]);
    expect(readRequestToken()).toMatchObject({ token: "token-1", enabled: true });
  });

  it("tries only once more", async () => {
    const refused = () => ({ data: null, error: httpError(403, { success: false, error: "Invalid request token" }) });
    fake.functions.invoke.mockImplementation(async () => refused());
    await expect(invokePrivileged("f")).rejects.toMatchObject({ message: "Invalid request token" });
    expect(fake.functions.invoke).toHaveBeenCalledTimes(2);
  });

  it("throws a function's refusal as an RpcError with its code", async () => {
    fake.functions.invoke.mockResolvedValue({
      data: null,
      error: httpError(403, { success: false, error: "Admin privileges required", code: "admin_required" }),
    });
    const failure = invokePrivileged("f");
    await expect(failure).rejects.toBeInstanceOf(RpcError);
    await expect(failure).rejects.toMatchObject({ message: "Admin privileges required", code: "admin_required" });
  });

  it("throws other failures as they are", async () => {
    const error = httpError(500, "not json");
    fake.functions.invoke.mockResolvedValue({ data: null, error });
    await expect(invokePrivileged("f")).rejects.toBe(error);
  });

  it("fails when no token can be issued", async () => {
    fake.rpc.mockResolvedValue({ data: { success: false, error: "Authentication required", code: "authentication_required" }, error: null });
    await expect(invokePrivileged("f")).rejects.toMatchObject({ code: "authentication_required" });
    expect(fake.functions.invoke).not.toHaveBeenCalled();
  });
});
