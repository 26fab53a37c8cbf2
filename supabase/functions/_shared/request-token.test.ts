import { deepStrictEqual as assertEquals } from "node:assert/strict";
import type { SupabaseClient } from "@supabase/supabase-js";
import { checkRequestToken, requestTokenHeader } from "./request-token.ts";

interface RpcCall {
  name: string;
  args: unknown;
}

/** A stand-in for the caller's client that answers verify_request_token as told. */
function fakeCaller(answer: { data: unknown; error: unknown } | Error, calls: RpcCall[] = []) {
  return {
    rpc: (name: string, args: unknown) => {
      calls.push({ name, args });
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  } as unknown as SupabaseClient;
}

const request = (token?: string) =>
  new Request("http://localhost/privileged", {
    method: "POST",
    headers: token === undefined ? {} : { [requestTokenHeader]: token },
  });

async function expectRefused(response: Response | null) {
  assertEquals(response?.status, 403);
  assertEquals(await response?.json(), { success: false, error: "Invalid request token" });
  assertEquals(response?.headers.get("Access-Control-Allow-Origin"), "*");
}

Deno.test("lets a request through when the database confirms the token for the caller", async () => {
  const calls: RpcCall[] = [];
  const answer = await checkRequestToken(request("token-1"), fakeCaller({ data: true, error: null }, calls));
  assertEquals(answer, null);
  assertEquals(calls, [{ name: "verify_request_token", args: { p_token: "token-1" } }]);
});

Deno.test("refuses a request without the header, without asking the database", async () => {
  const calls: RpcCall[] = [];
  await expectRefused(await checkRequestToken(request(), fakeCaller({ data: true, error: null }, calls)));
  await expectRefused(await checkRequestToken(request("   "), fakeCaller({ data: true, error: null }, calls)));
  assertEquals(calls, []);
});

Deno.test("refuses an oversized header without asking the database", async () => {
  const calls: RpcCall[] = [];
  await expectRefused(await checkRequestToken(request("x".repeat(257)), fakeCaller({ data: true, error: null }, calls)));
  assertEquals(calls, []);
});

Deno.test("refuses a token the database does not confirm (foreign session, other user, expired)", async () => {
  await expectRefused(await checkRequestToken(request("token-1"), fakeCaller({ data: false, error: null })));
});

Deno.test("refuses when the database answers anything but true", async () => {
  await expectRefused(await checkRequestToken(request("token-1"), fakeCaller({ data: "true", error: null })));
  await expectRefused(await checkRequestToken(request("token-1"), fakeCaller({ data: null, error: null })));
});

Deno.test("refuses when the check itself fails", async () => {
  await expectRefused(
    await checkRequestToken(request("token-1"), fakeCaller({ data: null, error: { message: "permission denied" } })),
  );
  await expectRefused(await checkRequestToken(request("token-1"), fakeCaller(new Error("network down"))));
});

Deno.test("trims the header before checking it", async () => {
  const calls: RpcCall[] = [];
  assertEquals(await checkRequestToken(request("  token-2 "), fakeCaller({ data: true, error: null }, calls)), null);
  assertEquals(calls[0]?.args, { p_token: "token-2" });
});
