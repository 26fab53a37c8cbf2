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

Deno.test("transfers with the spec's defaults: deals, customers and tasks on; the rest off", async () => {
  const { status, call } = await rpcCallFor({ action: "transfer", from_user_id: giver, to_user_id: taker });
  assertEquals(status, 200);
  assertEquals(call, {
    name: "transfer_user_records",
    args: {
      from_user_id: giver,
      to_user_id: taker,
      organization_slug: null,
      transfer_deals: true,
      transfer_customers: true,
      transfer_tasks: true,
      transfer_contracts: false,
      transfer_quotes: false,
      transfer_templates: false,
    },
  });
});

Deno.test("passes the kinds the admin chose", async () => {
  const { call } = await rpcCallFor({
    action: "transfer",
    from_user_id: giver,
    to_user_id: taker,
    organization_slug: "demo",
    transfer_deals: false,
    transfer_quotes: true,
  });
  assertEquals(call.args.transfer_deals, false);
  assertEquals(call.args.transfer_quotes, true);
  assertEquals(call.args.organization_slug, "demo");
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

Deno.test("refuses a transfer flag that is not a boolean", async () => {
  const { status, call } = await rpcCallFor({ action: "transfer", from_user_id: giver, to_user_id: taker, transfer_deals: "yes" });
  assertEquals(status, 400);
  assertEquals(call, undefined);
});
