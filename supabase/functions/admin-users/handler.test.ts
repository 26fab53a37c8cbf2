import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fakeCaller, privilegedRequest } from "../_shared/fake-caller.ts";
import { createHandler } from "./handler.ts";

const userId = "0b000000-0000-4000-8000-000000000003";
const send = (body: unknown, options: Parameters<typeof fakeCaller>[0] = {}, headers: Record<string, string> = {}) => {
  const caller = fakeCaller(options);
  const response = createHandler(caller.factory)(privilegedRequest("admin-users", body, headers));
  return { response, calls: caller.calls };
};

Deno.test("answers the CORS preflight", async () => {
  const { factory } = fakeCaller();
  const response = await createHandler(factory)(new Request("http://localhost/admin-users", { method: "OPTIONS" }));
  assertEquals(response.status, 200);
  assertEquals(response.headers.get("Access-Control-Allow-Headers")?.includes("x-csrf-token"), true);
});

Deno.test("allows POST only", async () => {
  const { factory } = fakeCaller();
  const response = await createHandler(factory)(new Request("http://localhost/admin-users", { method: "GET" }));
  assertEquals(response.status, 405);
});

Deno.test("refuses a caller Auth does not know, before anything else", async () => {
  const { response, calls } = send({ action: "lock", user_id: userId }, { user: null });
  assertEquals((await response).status, 401);
  assertEquals(calls, []);
});

Deno.test("answers 503, not 401, when Auth cannot check the caller (the app signs out on a 401)", async () => {
  const { response, calls } = send({ action: "lock", user_id: userId }, { user: "unavailable" });
  const answer = await response;
  assertEquals([answer.status, await answer.json()], [503, { success: false, error: "Service unavailable" }]);
  assertEquals(calls, []);
});

Deno.test("refuses a missing or stale request token without acting", async () => {
  const missing = send({ action: "lock", user_id: userId }, {}, { "x-csrf-token": "" });
  assertEquals((await missing.response).status, 403);
  const stale = send({ action: "lock", user_id: userId }, { tokenValid: false });
  const answer = await stale.response;
  assertEquals(answer.status, 403);
  assertEquals(await answer.json(), { success: false, error: "Invalid request token" });
  assertEquals(stale.calls.map((call) => call.name), ["verify_request_token"]);
});

Deno.test("sends the request token with the caller's RPC calls (the privileged RPCs check it themselves)", async () => {
  const caller = fakeCaller();
  const response = await createHandler(caller.factory)(
    privilegedRequest("admin-users", { action: "lock", user_id: userId }, { "x-csrf-token": " token-of-this-session " }),
  );
  assertEquals(response.status, 200);
  assertEquals(caller.clientHeaders, [{ "x-csrf-token": "token-of-this-session" }]);
});

Deno.test("answers 403 when the database refuses the token (invalid_request_token)", async () => {
  const { response } = send(
    { action: "lock", user_id: userId },
    { answer: { data: { success: false, error: "Invalid request token", code: "invalid_request_token" }, error: null } },
  );
  const answer = await response;
  assertEquals([answer.status, await answer.json()], [403, { success: false, error: "Invalid request token", code: "invalid_request_token" }]);
});

Deno.test("refuses malformed input with the fields concerned", async () => {
  const notJson = await send("{not json").response;
  assertEquals(notJson.status, 400);
  const badId = await send({ action: "lock", user_id: "42" }).response;
  assertEquals(badId.status, 400);
  assertEquals((await badId.json()).issues.map((issue: { path: string }) => issue.path), ["user_id"]);
  const unknownAction = await send({ action: "promote", user_id: userId }).response;
  assertEquals(unknownAction.status, 400);
  const unknownField = send({ action: "update", user_id: userId, user_data: { role: "admin", password: "x" } });
  assertEquals((await unknownField.response).status, 400);
  assertEquals(unknownField.calls.map((call) => call.name), ["verify_request_token"]);
});

Deno.test("creates a user through create_user_secure as the caller", async () => {
  const { response, calls } = send(
    { action: "create", email: "yeni@demo.test", password: "Yeni.123", first_name: "Yeni", last_name: "Kişi" },
    { answer: { data: { success: true, user: { id: userId } }, error: null } },
  );
  assertEquals((await response).status, 200);
  assertEquals(calls[1], {
    name: "create_user_secure",
    args: {
      p_email: "yeni@demo.test",
      p_password: "Yeni.123",
      p_organization_id: null,
      p_first_name: "Yeni",
      p_last_name: "Kişi",
      p_role: "user",
    },
  });
});

Deno.test("maps each action to its RPC", async () => {
  const cases: [unknown, string, Record<string, unknown>][] = [
    [{ action: "update", user_id: userId, user_data: { is_active: false } }, "update_user_secure",
      { p_user_id: userId, p_user_data: { is_active: false }, p_organization_slug: null }],
    [{ action: "delete", user_id: userId }, "delete_user_secure", { p_user_id: userId, p_organization_id: null }],
    [{ action: "lock", user_id: userId }, "lock_user_secure", { p_user_id: userId }],
    [{ action: "unlock", user_id: userId }, "unlock_user_secure", { p_user_id: userId }],
    [{ action: "reset_password", user_id: userId, new_password: "Yeni.123" }, "simple_reset_password",
      { p_user_id: userId, p_new_password: "Yeni.123" }],
  ];
  for (const [body, name, args] of cases) {
    const { response, calls } = send(body);
    assertEquals((await response).status, 200);
    assertEquals(calls[1], { name, args });
  }
});

Deno.test("gives the database's refusals fitting statuses and keeps their texts", async () => {
  const cases: [string, number][] = [
    ["admin_required", 403],
    ["super_admin_required", 403],
    ["shared_account", 403],
    ["self_delete", 403],
    ["user_not_found", 404],
    ["email_in_use", 409],
    ["has_records", 409],
    ["invalid_email", 400],
    ["password_too_short", 400],
    ["password_too_long", 400],
    ["password_common", 400],
  ];
  for (const [code, status] of cases) {
    const refusal = { success: false, error: `text of ${code}`, code };
    const response = await send({ action: "lock", user_id: userId }, { answer: { data: refusal, error: null } }).response;
    assertEquals(response.status, status);
    assertEquals(await response.json(), refusal);
  }
});

Deno.test("answers a database error without its details", async () => {
  const response = await send({ action: "lock", user_id: userId }, { answer: { data: null, error: { message: "relation x does not exist" } } })
    .response;
  assertEquals(response.status, 500);
  assertEquals(await response.json(), { success: false, error: "User update failed", code: "server_error" });
});
