import { SignJWT } from "jose";
import { describe, expect, inject, it } from "vitest";
import { testKeys } from "../support/keys.ts";
import { anonClient, signedInClient } from "../support/clients.ts";

const url = inject("stackUrl");
const functionUrl = (name: string) => `${url}/functions/v1/${name}`;

async function errorBody(error: unknown): Promise<unknown> {
  return (error as { context: Response }).context.json();
}

describe("edge functions behind /functions/v1", () => {
  it("current-user answers the signed-in caller with their profile and organization", async () => {
    const { client } = await signedInClient(url, "satis@demo.test");
    const { data, error } = await client.functions.invoke("current-user");
    expect(error).toBeNull();
    expect(data).toMatchObject({ success: true, user: { email: "satis@demo.test" }, organization: { slug: "demo" } });
  });

  it("current-user refuses a caller who sends only the publishable key", async () => {
    const { data, error } = await anonClient(url).functions.invoke("current-user");
    expect(data).toBeNull();
    expect(await errorBody(error)).toEqual({ success: false, error: "Authentication required" });
  });

  it("verify_jwt refuses a request without an Authorization header", async () => {
    const response = await fetch(functionUrl("current-user"), { method: "POST" });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "UNAUTHORIZED_NO_AUTH_HEADER" });
  });

  it("verify_jwt refuses a token signed with another secret", async () => {
    const forged = await new SignJWT({ sub: "0b000000-0000-4000-8000-000000000001", role: "authenticated" })
      .setProtectedHeader({ alg: "HS256" })
      .setExpirationTime("1h")
      .sign(new TextEncoder().encode("not-the-project-secret-not-the-project-secret"));
    const response = await fetch(functionUrl("current-user"), {
      method: "POST",
      headers: { Authorization: `Bearer ${forged}`, apikey: testKeys.publishableKey },
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: "UNAUTHORIZED_INVALID_JWT" });
  });

  it("answers 404 for a function that does not exist", async () => {
    const response = await fetch(functionUrl("no-such-function"), { method: "POST" });
    expect(response.status).toBe(404);
  });

  it("answers the CORS preflight", async () => {
    const response = await fetch(functionUrl("current-user"), { method: "OPTIONS" });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-headers")).toContain("authorization");
  });
});
