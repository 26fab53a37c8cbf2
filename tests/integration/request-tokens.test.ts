/**
 * The request-forgery token end to end through supabase-js (spec sections 3 and 9): the app's
 * session gets a token from the database, and the Edge Functions' check
 * (supabase/functions/_shared/request-token.ts, run here with real clients) accepts it only
 * from that same session. The privileged RPCs themselves ask the same question of the
 * x-csrf-token header (the Data API hands request headers to SQL), so calling them directly
 * on the Data API, without going through an Edge Function, gets nowhere without a token.
 */
import { describe, expect, inject, it } from "vitest";
import { checkRequestToken, requestTokenHeader } from "../../supabase/functions/_shared/request-token.ts";
import { randomUUID } from "node:crypto";
import { createClient } from "@supabase/supabase-js";
import ws from "ws";
import { testKeys } from "../support/keys.ts";
import type { Database } from "../../src/types/database.types.ts";
import { createMember, testPassword } from "../support/accounts.ts";
import { anonClient, demoOrganizationId, privilegedRpc, rpc, signedInClient, type CrmClient } from "../support/clients.ts";
import { invokeFunction, requestToken } from "../support/functions.ts";

const url = inject("stackUrl");

async function issue(client: CrmClient) {
  const answer = await rpc(client, "issue_request_token");
  expect(answer).toMatchObject({ success: true });
  return { token: answer.token as string, expiresAt: Date.parse(answer.expires_at as string) };
}

async function verify(client: CrmClient, token: string | null) {
  const { data, error } = await client.rpc("verify_request_token", { p_token: token as string });
  expect(error).toBeNull();
  return data;
}

const request = (token?: string) =>
  new Request("http://localhost/privileged", { method: "POST", headers: token ? { [requestTokenHeader]: token } : {} });

describe("request tokens through supabase-js", () => {
  it("issues a token of 32 random bytes, valid for one hour, and accepts it in the same session", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const before = Date.now();
    const { token, expiresAt } = await issue(client);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token, "base64url")).toHaveLength(32);
    expect(expiresAt - before).toBeGreaterThan(3_590_000);
    expect(expiresAt - before).toBeLessThanOrEqual(3_610_000);
    expect(await verify(client, token)).toBe(true);
    expect(await checkRequestToken(request(token), client)).toBeNull();
  });

  it("refuses the token in another session of the same user", async () => {
    const { client: first } = await signedInClient(url, "satis@demo.test");
    const { client: second } = await signedInClient(url, "satis@demo.test");
    const { token } = await issue(first);
    expect(await verify(second, token)).toBe(false);
    const refused = await checkRequestToken(request(token), second);
    expect(refused?.status).toBe(403);
    expect(await refused?.json()).toEqual({ success: false, error: "Invalid request token" });
  });

  it("refuses the token for another user", async () => {
    const { client: owner } = await signedInClient(url, "admin@demo.test");
    const { client: other } = await signedInClient(url, "admin@acme.test");
    const { token } = await issue(owner);
    expect(await verify(other, token)).toBe(false);
    expect((await checkRequestToken(request(token), other))?.status).toBe(403);
  });

  it("refuses a missing or made-up token", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    expect((await checkRequestToken(request(), client))?.status).toBe(403);
    expect(await verify(client, "not-a-token")).toBe(false);
    expect((await checkRequestToken(request("not-a-token"), client))?.status).toBe(403);
  });

  it("gives an anonymous caller neither a token nor a check", async () => {
    const anon = anonClient(url);
    const issued = await anon.rpc("issue_request_token");
    expect(issued.error?.code).toBe("42501");
    const checked = await anon.rpc("verify_request_token", { p_token: "x" });
    expect(checked.error?.code).toBe("42501");
    expect((await checkRequestToken(request("x"), anon))?.status).toBe(403);
  });

  it("stops accepting the token once the session has signed out", async () => {
    const { client } = await signedInClient(url, "satis@demo.test");
    const { token } = await issue(client);
    // Keep the access token: a request forged with it after the sign-out must still fail.
    const { data } = await client.auth.getSession();
    const accessToken = data.session?.access_token ?? "";
    expect(await client.auth.signOut({ scope: "local" })).toEqual({ error: null });
    const { data: replayed, error } = await anonClient(url)
      .rpc("verify_request_token", { p_token: token })
      .setHeader("Authorization", `Bearer ${accessToken}`);
    expect(error).toBeNull();
    expect(replayed).toBe(false);
  });

  it("the privileged RPCs refuse a direct Data API call without this session's token, and change nothing", async () => {
    const { client: admin } = await signedInClient(url, "admin@demo.test");
    const { client: sameAccountElsewhere } = await signedInClient(url, "admin@demo.test");
    const member = await createMember(url);
    const email = `dogrudan-${randomUUID().slice(0, 8)}@test.example`;
    const create = { p_email: email, p_password: "Dogrudan.123", p_organization_id: demoOrganizationId, p_first_name: "Doğru", p_last_name: "Dan" };
    const refusal = { success: false, error: "Invalid request token", code: "invalid_request_token" };
    const calls: [string, Record<string, unknown>][] = [
      ["create_user_secure", create],
      ["update_user_secure", { p_user_id: member.id, p_user_data: { first_name: "Ele" } }],
      ["lock_user_secure", { p_user_id: member.id }],
      ["unlock_user_secure", { p_user_id: member.id }],
      ["simple_reset_password", { p_user_id: member.id, p_new_password: "Ele.Gecir.1" }],
      ["delete_user_secure", { p_user_id: member.id }],
      ["analyze_user_records", { target_user_id: member.id }],
      ["get_users_for_transfer", {}],
      ["transfer_user_records", { from_user_id: member.id, to_user_id: member.id }],
      ["list_organizations", {}],
      ["create_organization", { p_slug: `d-${randomUUID().slice(0, 6)}`, p_name: "Doğrudan" }],
      ["update_organization", { p_organization_id: demoOrganizationId, p_changes: { name: "Ele geçti" } }],
    ];
    const otherSessionsToken = await requestToken(sameAccountElsewhere);
    for (const [name, args] of calls) {
      expect(await rpc(admin, name, args), `${name} without a token`).toEqual(refusal);
      expect(await privilegedRpc(admin, name, args, otherSessionsToken), `${name} with another session's token`).toEqual(refusal);
      expect(await privilegedRpc(admin, name, args, "made-up"), `${name} with a made-up token`).toEqual(refusal);
    }
    // Nothing happened: the member still signs in with their password (not deleted, locked or
    // reset) and keeps their name.
    await signedInClient(url, member.email, testPassword);
    const listed = await rpc(admin, "get_organization_users", { p_search: member.email });
    expect(listed.users).toMatchObject([{ id: member.id, first_name: "Deniz" }]);
    // With this session's own token the same call goes through (the e-mail was never taken).
    expect(await privilegedRpc(admin, "create_user_secure", create)).toMatchObject({ success: true });
    // Through the Edge Function, the token the app sends reaches the database too.
    const viaFunction = await invokeFunction(admin, "admin-users", { action: "lock", user_id: member.id }, await requestToken(admin));
    expect(viaFunction).toMatchObject({ status: 200, body: { success: true } });
  });
});

describe("a super admin's token after a global sign-out", () => {
  it("is refused everywhere a super admin is trusted: organizations, users, audit log", async () => {
    const { client, session } = await signedInClient(url, "super@demo.test");
    const readings = async (target: CrmClient) => ({
      users: (await rpc(target, "get_organization_users", { p_organization_slug: "acme" })).success,
      audit: (await rpc(target, "get_audit_log", { p_organization_slug: "acme" })).success,
    });
    expect(await readings(client)).toEqual({ users: true, audit: true });
    expect((await invokeFunction(client, "admin-organizations", { action: "list" }, await requestToken(client))).status).toBe(200);

    // A copy of the access token, kept by whoever held it; then the session signs out everywhere.
    const withOldToken = createClient<Database>(url, testKeys.publishableKey, {
      global: { headers: { Authorization: `Bearer ${session.access_token}` } },
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { transport: ws as never },
    });
    expect(await readings(withOldToken)).toEqual({ users: true, audit: true });
    await client.auth.signOut({ scope: "global" });

    expect(await readings(withOldToken)).toEqual({ users: false, audit: false });
    expect(await privilegedRpc(withOldToken, "list_organizations", {}, "any")).toMatchObject({ success: false });
    expect((await rpc(withOldToken, "issue_request_token")).success).toBe(false);
  });
});
