import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { AuthRetryableFetchError, type SupabaseClient } from "@supabase/supabase-js";
import { createHandler } from "./handler.ts";

interface FakeAnswers {
  user?: { id: string } | null;
  /** Auth cannot be reached (the database restarting): its 503. */
  authUnavailable?: boolean;
  rpc?: { data: unknown; error: unknown };
}

/** A stand-in for the caller's client: only what the handler uses. */
function fakeClientFactory(answers: FakeAnswers, seen: string[] = []) {
  return (authorization: string) => {
    seen.push(authorization);
    return {
      auth: {
        getUser: () =>
          Promise.resolve(
            answers.authUnavailable
              ? { data: { user: null }, error: new AuthRetryableFetchError("The service is not available; try again shortly", 503) }
              : answers.user ? { data: { user: answers.user }, error: null } : { data: { user: null }, error: { message: "bad" } },
          ),
      },
      rpc: () => Promise.resolve(answers.rpc ?? { data: null, error: { message: "boom" } }),
    } as unknown as SupabaseClient;
  };
}

const request = (init: RequestInit = {}) => new Request("http://localhost/current-user", { method: "POST", ...init });

Deno.test("answers the preflight with CORS headers", async () => {
  const response = await createHandler(fakeClientFactory({}))(request({ method: "OPTIONS" }));
  assertEquals(response.status, 200);
  assertEquals(response.headers.get("Access-Control-Allow-Origin"), "*");
});

Deno.test("refuses a request without a bearer token", async () => {
  const response = await createHandler(fakeClientFactory({}))(request());
  assertEquals(response.status, 401);
  assertEquals(await response.json(), { success: false, error: "Authentication required" });
});

Deno.test("refuses a token Auth does not accept", async () => {
  const response = await createHandler(fakeClientFactory({ user: null }))(
    request({ headers: { Authorization: "Bearer not-a-session" } }),
  );
  assertEquals(response.status, 401);
});

Deno.test("answers 503, not 401, when Auth cannot check the token (the app signs out on a 401)", async () => {
  const response = await createHandler(fakeClientFactory({ authUnavailable: true }))(request({ headers: { Authorization: "Bearer token-1" } }));
  assertEquals(response.status, 503);
  assertEquals(await response.json(), { success: false, error: "Service unavailable" });
});

Deno.test("refuses other methods", async () => {
  const response = await createHandler(fakeClientFactory({}))(request({ method: "DELETE" }));
  assertEquals(response.status, 405);
});

Deno.test("acts as the caller and returns the database's answer", async () => {
  const seen: string[] = [];
  const context = { success: true, user: { id: "u1" }, organization: { slug: "demo" } };
  const handler = createHandler(fakeClientFactory({ user: { id: "u1" }, rpc: { data: context, error: null } }, seen));
  const response = await handler(request({ headers: { Authorization: "Bearer token-1" } }));
  assertEquals(response.status, 200);
  assertEquals(await response.json(), context);
  assertEquals(seen, ["Bearer token-1"]);
});

Deno.test("turns a database error into the catalogue's message, not the raw error", async () => {
  const handler = createHandler(fakeClientFactory({ user: { id: "u1" }, rpc: { data: null, error: { message: "relation x" } } }));
  const response = await handler(request({ headers: { Authorization: "Bearer token-1" } }));
  assertEquals(response.status, 500);
  assertEquals(await response.json(), { success: false, error: "Failed to fetch users" });
});

Deno.test("passes the database's refusal on", async () => {
  const handler = createHandler(
    fakeClientFactory({ user: { id: "u1" }, rpc: { data: { success: false, error: "User not found" }, error: null } }),
  );
  const response = await handler(request({ headers: { Authorization: "Bearer token-1" } }));
  assertEquals(response.status, 404);
  assertEquals(await response.json(), { success: false, error: "User not found" });
});
