import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { fakeCaller, privilegedRequest } from "../_shared/fake-caller.ts";
import { createHandler } from "./handler.ts";

async function send(body: unknown, answer?: { data: unknown; error: unknown }) {
  const caller = fakeCaller({ answer });
  const response = await createHandler(caller.factory)(privilegedRequest("admin-organizations", body));
  return { status: response.status, body: await response.json(), call: caller.calls[1] };
}

Deno.test("creates an organization on the basic plan unless told otherwise", async () => {
  const { status, call } = await send({ action: "create", slug: "yeni", name: "Yeni Şirket" });
  assertEquals(status, 200);
  const none = { p_admin_email: null, p_admin_password: null, p_admin_first_name: null, p_admin_last_name: null };
  assertEquals(call, { name: "create_organization", args: { p_slug: "yeni", p_name: "Yeni Şirket", p_subscription_plan: "basic", ...none } });
});

Deno.test("passes the first admin on, in the same call", async () => {
  const first_admin = { email: "yonetici@yeni.test", password: "Gizli.1234", first_name: "Ayşe", last_name: "Kaya" };
  const { status, call } = await send({ action: "create", slug: "", name: "Işık Yazılım", first_admin });
  assertEquals(status, 200);
  assertEquals(call, {
    name: "create_organization",
    args: {
      p_slug: "",
      p_name: "Işık Yazılım",
      p_subscription_plan: "basic",
      p_admin_email: "yonetici@yeni.test",
      p_admin_password: "Gizli.1234",
      p_admin_first_name: "Ayşe",
      p_admin_last_name: "Kaya",
    },
  });
  const refused = await send({ action: "create", slug: "x", name: "X", first_admin: { email: "a@b.test", password: "x", role: "super_admin" } });
  assertEquals(refused.status, 400);
  assertEquals(refused.call, undefined);
});

Deno.test("updates only the fields the manager may change", async () => {
  const id = "0a000000-0000-4000-8000-000000000002";
  const { call } = await send({ action: "update", organization_id: id, changes: { is_active: false } });
  assertEquals(call, { name: "update_organization", args: { p_organization_id: id, p_changes: { is_active: false } } });
  const refused = await send({ action: "update", organization_id: id, changes: { slug: "other" } });
  assertEquals(refused.status, 400);
  assertEquals(refused.call, undefined);
});

Deno.test("passes a non-super-admin's refusal on as 403", async () => {
  const refusal = { success: false, error: "Admin privileges required", code: "super_admin_required" };
  const { status, body } = await send({ action: "list" }, { data: refusal, error: null });
  assertEquals(status, 403);
  assertEquals(body, refusal);
});
