import { describe, expect, inject, it } from "vitest";
import { testKeys } from "../support/keys.ts";
import { anonClient, signedInClient } from "../support/clients.ts";

const url = inject("stackUrl");

describe("the local stack on one origin", () => {
  it.each([
    ["admin@demo.test", "Ayşe", "demo", "admin"],
    ["satis@demo.test", "Mehmet", "demo", "sales"],
    ["admin@acme.test", "John", "acme", "admin"],
  ])("signs %s in and tells their own organization", async (email, firstName, slug, role) => {
    const { client } = await signedInClient(url, email);
    const { data, error } = await client.rpc("get_current_user_context");
    expect(error).toBeNull();
    const context = data as { user: { first_name: string }; organization: { slug: string }; organizations: { slug: string; role: string }[] };
    expect(context.user.first_name).toBe(firstName);
    expect(context.organization.slug).toBe(slug);
    expect(context.organizations).toEqual([expect.objectContaining({ slug, role })]);
  });

  it("says Realtime is not here (no app shell for its handshake), so the app falls back to polling", async () => {
    const answer = await fetch(`${url}/realtime/v1/websocket?vsn=2.0.0`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ message: "Realtime is not available on the local stack" });
  });

  it("offers a super admin without memberships every active organization", async () => {
    const { client } = await signedInClient(url, "super@demo.test", undefined, { organization: false });
    const { data } = await client.rpc("get_current_user_context");
    expect(data).toMatchObject({ success: true, user: { role: "super_admin" }, organization: null });
    // Other tests on this shared stack may have added organizations of their own.
    expect((data as { organizations: { slug: string }[] }).organizations.map((o) => o.slug)).toEqual(
      expect.arrayContaining(["acme", "demo"]),
    );
  });

  it("refuses the context RPC to an anonymous caller", async () => {
    const { data, error, status } = await anonClient(url).rpc("get_current_user_context");
    expect(data).toBeNull();
    expect(status).toBe(401);
    expect(error?.code).toBe("42501");
  });

  it("refuses an RPC argument of the wrong type with a 400, as PostgREST does (not the embedded driver's 500)", async () => {
    const { client } = await signedInClient(url, "satis@demo.test");
    const { data, error, status } = await client.rpc("list_deals", { p_descending: "maybe" as unknown as boolean });
    expect(data).toBeNull();
    expect(status).toBe(400);
    expect(error).toMatchObject({ code: "22P02", message: "invalid input syntax for type boolean" });
  });

  it("answers a wrong password and an unknown email the same way", async () => {
    const wrong = await anonClient(url).auth.signInWithPassword({ email: "admin@demo.test", password: "Wrong.1234" });
    const unknown = await anonClient(url).auth.signInWithPassword({ email: "nobody@demo.test", password: "Wrong.1234" });
    expect(wrong.error?.code).toBe("invalid_credentials");
    expect(unknown.error?.code).toBe(wrong.error?.code);
    expect(unknown.error?.status).toBe(wrong.error?.status);
  });

  it("does not expose the private schema through the Data API", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const { data, error } = await client.schema("private" as "public").from("profiles" as never).select("*");
    expect(data).toBeNull();
    expect(error?.code).toBe("PGRST106");
  });

  it("serves no keyless request as service_role (admin mode is off)", async () => {
    const response = await fetch(`${url}/rest/v1/rpc/get_current_user_context`, { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
    expect(response.status).toBe(401);
  });

  it("lets the secret key act as service_role only through its own header", async () => {
    const response = await fetch(`${url}/rest/v1/rpc/get_current_user_context`, {
      method: "POST",
      body: "{}",
      headers: { "content-type": "application/json", Authorization: `Bearer ${testKeys.secretKey}` },
    });
    // A key sent only as a bearer token is not an API key (lite and hosted agree).
    expect(response.status).toBe(401);
  });
});
