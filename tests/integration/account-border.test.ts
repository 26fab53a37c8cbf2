/**
 * The cross-organization takeover of issue 10, replayed with the demo data through
 * supabase-js and the admin-users Edge Function: acme's admin acts on coklu@demo.test, who
 * belongs to demo and to acme. Whatever acts on the account as a whole is refused; what
 * acts on the acme membership stays acme's.
 */
import { describe, expect, inject, it } from "vitest";
import { acmeOrganizationId, anonClient, demoOrganizationId, demoPassword, privilegedRpc, rpc, signedInClient } from "../support/clients.ts";
import { invokeFunction, requestToken } from "../support/functions.ts";

const url = inject("stackUrl");
const sharedEmail = "coklu@demo.test";
const refusal = { success: false, error: "Admin privileges required", code: "shared_account" };

async function acmeAdmin() {
  const { client } = await signedInClient(url, "admin@acme.test", demoPassword, { organization: acmeOrganizationId });
  const info = await rpc(client, "get_user_info_by_email", { user_email: sharedEmail });
  const user = info.user as { id: string; organization_role: Record<string, string> };
  return { client, sharedId: user.id, shownMemberships: user.organization_role };
}

describe("an admin's power over an account ends at their organization's border", () => {
  it("acme's admin cannot take over the member demo shares with acme", async () => {
    const { client, sharedId, shownMemberships } = await acmeAdmin();
    expect(shownMemberships).toEqual({ [acmeOrganizationId]: "user" });
    expect(shownMemberships).not.toHaveProperty(demoOrganizationId);

    expect(await privilegedRpc(client, "simple_reset_password", { p_user_id: sharedId, p_new_password: "Ele.Gecir.1" })).toEqual(refusal);
    expect(await rpc(client, "sync_user_password", { p_email: sharedEmail, p_password: "Ele.Gecir.2" })).toMatchObject({
      success: false,
      code: "password_sync_failed",
    });
    expect(await rpc(client, "create_auth_user_admin", { p_email: sharedEmail, p_password: "Ele.Gecir.3" })).toMatchObject({
      success: false,
      code: "auth_user_creation_failed",
    });
    expect(await privilegedRpc(client, "lock_user_secure", { p_user_id: sharedId })).toEqual(refusal);
    expect(await privilegedRpc(client, "unlock_user_secure", { p_user_id: sharedId })).toEqual(refusal);
    expect(await privilegedRpc(client, "update_user_secure", { p_user_id: sharedId, p_user_data: { email: "ele@gecir.test" } })).toEqual(
      refusal,
    );

    // Through the privileged Edge Function the refusal is a 403 with the same answer.
    const reset = await invokeFunction(
      client,
      "admin-users",
      { action: "reset_password", user_id: sharedId, new_password: "Ele.Gecir.4" },
      await requestToken(client),
    );
    expect(reset).toEqual({ status: 403, body: refusal });

    // The membership in acme stays acme's to manage.
    expect(await privilegedRpc(client, "update_user_secure", { p_user_id: sharedId, p_user_data: { role: "user" } })).toMatchObject({
      success: true,
    });

    // demo's admin sees in demo's log what acme's admin did to their member.
    const { client: demoAdmin } = await signedInClient(url, "admin@demo.test");
    const log = await rpc(demoAdmin, "get_audit_log", { p_limit: 200 });
    const entries = log.entries as { action: string; target_id: string | null; actor: { email: string | null } }[];
    expect(entries).toContainEqual(
      expect.objectContaining({ action: "user.updated", target_id: sharedId, actor: expect.objectContaining({ email: "admin@acme.test" }) }),
    );

    // The account still signs in to demo with its own password, and with none of those.
    const login = await rpc(anonClient(url), "secure_login_prepare_auth", {
      p_email: sharedEmail,
      p_password: demoPassword,
      p_organization_slug: "demo",
    });
    expect(login).toMatchObject({ success: true, organization: { slug: "demo" } });
    for (const password of ["Ele.Gecir.1", "Ele.Gecir.2", "Ele.Gecir.3", "Ele.Gecir.4"]) {
      const { error } = await anonClient(url).auth.signInWithPassword({ email: sharedEmail, password });
      expect(error?.code).toBe("invalid_credentials");
    }
  });
});
