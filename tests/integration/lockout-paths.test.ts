/**
 * The lockout holds on every sign-in path of the local stack (issue 10): a direct Auth
 * sign-in meets the same lock as the login RPC (the stack's front plays the hosted
 * password-verification hook), a session from before a lock can do nothing, the client's
 * address comes from the socket, the per-address throttle answers unknown emails before any
 * bcrypt work (never a real account, issue 23),
 * and Auth changes no password. This file runs its own stack: it changes the throttle's
 * settings and fills its address's failure count, which the shared stack must not see.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/stack/free-port.ts";
import { startStack, type RunningStack } from "../../scripts/stack/server.ts";
import { testKeys } from "../support/keys.ts";
import { createMember, testPassword } from "../support/accounts.ts";
import { anonClient, rpc, signedInClient } from "../support/clients.ts";
import { invokeFunction, requestToken } from "../support/functions.ts";

let stack: RunningStack;

beforeAll(async () => {
  stack = await startStack({ port: await freePort(), seed: true, keys: testKeys });
});

afterAll(async () => {
  await stack?.stop();
});

const signIn = (email: string, password: string) => anonClient(stack.url).auth.signInWithPassword({ email, password });
const prepare = (email: string, password: string) =>
  rpc(anonClient(stack.url), "secure_login_prepare_auth", { p_email: email, p_password: password });

async function failureCount(email: string): Promise<number> {
  const [profile] = await stack.backend.sql.query<{ failed_login_attempts: number }>(
    "select failed_login_attempts from private.profiles where email = $1",
    [email],
  );
  return profile.failed_login_attempts;
}

/** Five wrong passwords straight to Auth: four plain refusals, then the lock. */
async function lockThroughAuth(email: string) {
  for (let attempt = 1; attempt <= 5; attempt += 1) {
    const { data, error } = await signIn(email, `Wrong.${attempt}`);
    expect(data.session).toBeNull();
    expect(error).toMatchObject({
      status: 400,
      code: "invalid_credentials",
      message: attempt < 5 ? "Invalid login credentials" : "Account is locked for 30 minutes",
    });
  }
}

/** Five wrong passwords through the login RPC. */
async function lockThroughLoginRpc(email: string) {
  for (let attempt = 1; attempt <= 5; attempt += 1) await prepare(email, `Wrong.${attempt}`);
}

describe("direct Auth sign-ins meet the lockout", () => {
  it("locks after wrong passwords sent straight to Auth, on every path", async () => {
    const { email } = await createMember(stack.url);
    await lockThroughAuth(email);
    const sixth = await signIn(email, "Wrong.6");
    expect(sixth.error).toMatchObject({ code: "invalid_credentials", message: "Account is locked for 30 minutes" });

    const right = await signIn(email, testPassword);
    expect(right.data.session).toBeNull();
    expect(right.error).toMatchObject({ status: 400, code: "invalid_credentials", message: "Account is locked for 30 minutes" });
    expect(await prepare(email, testPassword)).toMatchObject({ success: false, code: "account_locked", locked_minutes: 30 });
  });

  it("refuses a password over 72 bytes whose first 72 bytes are right (bcrypt reads no further)", async () => {
    const password = `Şifre.${"7".repeat(65)}`;
    expect(Buffer.byteLength(password)).toBe(72);
    const { email } = await createMember(stack.url, { password });
    const { error } = await signIn(email, `${password}x`);
    expect(error).toMatchObject({ status: 400, code: "invalid_credentials", message: "Invalid login credentials" });
    expect((await signIn(email, password)).error).toBeNull();
  });

  it.each([
    ["the login RPC", lockThroughLoginRpc],
    ["Auth directly", lockThroughAuth],
  ])("leaves a session from before a lock through %s unable to do anything", async (_path, lock) => {
    const member = await createMember(stack.url);
    const { client: bound } = await signedInClient(stack.url, member.email, member.password);
    const { client: unbound } = await signedInClient(stack.url, member.email, member.password, { organization: false });
    const token = await requestToken(bound);
    expect(await rpc(bound, "get_my_permissions")).toMatchObject({ success: true });
    expect(await invokeFunction(bound, "current-user", {})).toMatchObject({ status: 200, body: { success: true } });

    await lock(member.email);

    expect(await rpc(unbound, "bind_session_organization", {})).toMatchObject({ success: false });
    expect(await rpc(bound, "get_my_permissions")).toMatchObject({ success: false });
    expect(await rpc(bound, "list_customers")).toMatchObject({ success: false });
    expect(await rpc(bound, "verify_request_token", { p_token: token })).toBe(false);
    const called = await invokeFunction(bound, "current-user", {});
    expect(called.status).toBeGreaterThanOrEqual(400);
    expect(called.body).toMatchObject({ success: false });
  });
});

describe("the client's address", () => {
  it("is the socket's, whatever address headers the client sends", async () => {
    const { email } = await createMember(stack.url);
    const spoofed = { "x-forwarded-for": "203.0.113.7, 198.51.100.1", "cf-connecting-ip": "203.0.113.8" };
    const viaRpc = await anonClient(stack.url)
      .rpc("secure_login_prepare_auth", { p_email: email, p_password: "Wrong.1234" })
      .setHeader("x-forwarded-for", spoofed["x-forwarded-for"])
      .setHeader("cf-connecting-ip", spoofed["cf-connecting-ip"]);
    expect(viaRpc.data).toMatchObject({ code: "invalid_credentials" });
    const viaAuth = await fetch(`${stack.url}/auth/v1/token?grant_type=password`, {
      method: "POST",
      headers: { apikey: stack.keys.publishableKey, "content-type": "application/json", ...spoofed },
      body: JSON.stringify({ email, password: "Wrong.1234" }),
    });
    expect(viaAuth.status).toBe(400);

    const recorded = await stack.backend.sql.query<{ source: string; address: string }>(
      "select source, host(client_address) as address from private.login_attempts where email = $1 order by source",
      [email],
    );
    expect(recorded).toEqual([
      { source: "auth", address: "127.0.0.1" },
      { source: "login", address: "127.0.0.1" },
    ]);
  });
});

describe("the per-address throttle", () => {
  const limit = 3;
  let savedLimit: number;

  beforeAll(async () => {
    // This stack's address starts with no failures (earlier tests here made some), and a small limit.
    await stack.backend.sql.query("delete from private.login_attempts where client_address = '127.0.0.1'");
    const [saved] = await stack.backend.sql.query<{ client_failure_limit: number }>(
      "select client_failure_limit from private.security_settings",
    );
    savedLimit = saved.client_failure_limit;
    await stack.backend.sql.query("update private.security_settings set client_failure_limit = $1", [limit]);
  });

  afterAll(async () => {
    await stack.backend.sql.query("update private.security_settings set client_failure_limit = $1", [savedLimit]);
  });

  it("answers an unknown email on both paths like a wrong password after the limit, without checking it", async () => {
    // Issue 23: the address's limit holds back unknown emails only; a real account meets its own lock.
    const unknown = (n: number) => `nobody.${n}.${Date.now()}@nowhere.test`;
    expect((await signIn(unknown(1), "Wrong.1")).error?.code).toBe("invalid_credentials");
    expect(await prepare(unknown(2), "Wrong.2")).toMatchObject({ code: "invalid_credentials" });
    expect((await signIn(unknown(3), "Wrong.3")).error?.code).toBe("invalid_credentials");

    const late = [unknown(4), unknown(5)];
    expect(await prepare(late[0], "Wrong.4")).toEqual({ success: false, error: "Invalid login credentials", code: "invalid_credentials" });
    expect((await signIn(late[1], "Wrong.5")).error).toMatchObject({ status: 400, code: "invalid_credentials", message: "Invalid login credentials" });
    const logged = await stack.backend.sql.query<{ failure_reason: string }>(
      "select failure_reason from private.login_attempts where email = any($1) order by id",
      [late],
    );
    expect(logged).toEqual([{ failure_reason: "throttled" }, { failure_reason: "throttled" }]);

    // A real account from the same address: its wrong password is checked, its right one signs in.
    const { email } = await createMember(stack.url);
    expect(await prepare(email, "Wrong.6")).toMatchObject({ code: "invalid_credentials" });
    expect(await failureCount(email)).toBe(1);
    expect(await prepare(email, testPassword)).toMatchObject({ success: true });
    expect((await signIn(email, testPassword)).error).toBeNull();
  });
});

describe("password changes", () => {
  it("are refused through Auth, which cannot check the current password", async () => {
    const { email } = await createMember(stack.url);
    const { client } = await signedInClient(stack.url, email, testPassword);
    const { error } = await client.auth.updateUser({ password: "Yeni.Sifre.42" });
    expect(error).toMatchObject({
      status: 400,
      code: "reauthentication_needed",
      message: "Password update requires the current password: use the change_my_password RPC",
    });
    expect((await signIn(email, testPassword)).error).toBeNull();
    expect((await client.auth.updateUser({ data: { theme: "dark" } })).error).toBeNull();
  });
});

describe("the statement timeout", () => {
  it("applies the API roles' timeout to requests", async () => {
    expect(await rpc(anonClient(stack.url), "test_auth_uid")).toMatchObject({ statement_timeout: "8s" });
    const { client } = await signedInClient(stack.url, "satis@demo.test");
    expect(await rpc(client, "test_auth_uid")).toMatchObject({ role: "authenticated", statement_timeout: "8s" });
  });
});
