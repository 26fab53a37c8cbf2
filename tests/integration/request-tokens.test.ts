/**
 * The request-forgery token end to end through supabase-js (spec sections 3 and 9): the app's
 * session gets a token from the database, and the Edge Functions' check
 * (supabase/functions/_shared/request-token.ts, run here with real clients) accepts it only
 * from that same session.
 */
import { describe, expect, inject, it } from "vitest";
import { checkRequestToken, requestTokenHeader } from "../../supabase/functions/_shared/request-token.ts";
import { anonClient, rpc, signedInClient, type CrmClient } from "../support/clients.ts";

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
});
