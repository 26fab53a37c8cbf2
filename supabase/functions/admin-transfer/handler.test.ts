import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fakeCaller, privilegedRequest } from "../_shared/fake-caller.ts";
import { createHandler } from "./handler.ts";

const giver = "0b000000-0000-4000-8000-000000000003";
const taker = "0b000000-0000-4000-8000-000000000005";

async function rpcCallFor(body: unknown) {
  const caller = fakeCaller();
  const response = await createHandler(caller.factory)(privilegedRequest("admin-transfer", body));
  return { status: response.status, call: caller.calls[1] };
}

Deno.test("transfers without kinds: the database's defaults decide", async () => {
  const { status, call } = await rpcCallFor({ action: "transfer", from_user_id: giver, to_user_id: taker });
  assertEquals(status, 200);
  assertEquals(call, {
    name: "transfer_user_records",
    args: { from_user_id: giver, to_user_id: taker, organization_slug: null, kinds: null },
  });
});

Deno.test("passes the kinds the admin chose", async () => {
  const { call } = await rpcCallFor({
    action: "transfer",
    from_user_id: giver,
    to_user_id: taker,
    organization_slug: "demo",
    kinds: ["quotes", "templates"],
  });
  assertEquals(call.args, { from_user_id: giver, to_user_id: taker, organization_slug: "demo", kinds: ["quotes", "templates"] });
});

Deno.test("analyses and lists receivers through their RPCs", async () => {
  assertEquals((await rpcCallFor({ action: "analyze", user_id: giver })).call, {
    name: "analyze_user_records",
    args: { target_user_id: giver, organization_slug: null },
  });
  assertEquals((await rpcCallFor({ action: "users", exclude_user_id: giver })).call, {
    name: "get_users_for_transfer",
    args: { organization_slug: null, exclude_user_id: giver },
  });
});

Deno.test("refuses kinds that are not a list of kind names", async () => {
  for (const kinds of ["deals", ["Deals; drop"], [1]]) {
    const { status, call } = await rpcCallFor({ action: "transfer", from_user_id: giver, to_user_id: taker, kinds });
    assertEquals(status, 400);
    assertEquals(call, undefined);
  }
});
