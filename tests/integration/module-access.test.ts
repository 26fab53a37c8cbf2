import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { createMember } from "../support/accounts.ts";
import { anonClient, rpc, signedInClient } from "../support/clients.ts";

const url = inject("stackUrl");

describe("module permissions through supabase-js", () => {
  it("a role's matrix decides list_customers from the next request on", async () => {
    const { client: admin } = await signedInClient(url, "admin@demo.test");
    const roleKey = `stajyer_${randomUUID().slice(0, 8)}`;
    expect(
      await rpc(admin, "save_role", { p_key: roleKey, p_name: "Stajyer", p_permissions: { customers: { view: "own" } } }),
    ).toMatchObject({ success: true });
    const member = await createMember(url, { role: roleKey });
    const { client } = await signedInClient(url, member.email, member.password);

    expect(await rpc(client, "get_my_permissions")).toMatchObject({ is_admin: false, permissions: { customers: { view: "own" } } });
    expect(await rpc(client, "list_customers", { p_search: "a" })).toMatchObject({ success: true, scope: "own", total: 0 });

    // The admin takes the module away; the member's very next call is refused.
    expect(await rpc(admin, "save_role", { p_key: roleKey, p_name: "Stajyer", p_permissions: {} })).toMatchObject({ success: true });
    expect(await rpc(client, "list_customers")).toMatchObject({ success: false, code: "permission_denied" });
    expect(await rpc(client, "get_my_permissions")).toMatchObject({ success: true, permissions: {} });
  });

  it("an admin may list every customer; a signed-out caller may not call at all", async () => {
    const { client: admin } = await signedInClient(url, "admin@demo.test");
    expect(await rpc(admin, "list_customers", { p_sort: "created_at", p_descending: true })).toMatchObject({
      success: true,
      scope: "all",
    });
    expect(await rpc(admin, "list_customers", { p_sort: "owner_id" })).toMatchObject({ success: false, code: "invalid_input" });
    const { error } = await anonClient(url).rpc("list_customers", {});
    expect(error?.code).toBe("42501");
  });
});
