import { describe, expect, inject, it } from "vitest";
import { createMember, expectTenConcurrentFailuresToLockAtFive, testPassword } from "../support/accounts.ts";
import { anonClient, demoPassword, privilegedRpc, rpc, signedInClient } from "../support/clients.ts";

const url = inject("stackUrl");
const prepare = (email: string, password: string, slug?: string) =>
  rpc(anonClient(url), "secure_login_prepare_auth", { p_email: email, p_password: password, p_organization_slug: slug });

describe("the login flow through supabase-js (spec section 7)", () => {
  it("prepares, signs in, binds the session and records the login", async () => {
    const prepared = await prepare("  Satis@Demo.test ", demoPassword);
    expect(prepared).toMatchObject({
      success: true,
      user: { email: "satis@demo.test", first_name: "Mehmet" },
      organization: { slug: "demo", name: "Demo Ticaret A.Ş." },
    });

    const client = anonClient(url);
    const { error } = await client.auth.signInWithPassword({ email: "satis@demo.test", password: demoPassword });
    expect(error).toBeNull();
    const organizationId = (prepared.organization as { id: string }).id;
    expect(await rpc(client, "bind_session_organization", { p_organization_id: organizationId })).toMatchObject({ success: true });
    const recorded = await rpc(client, "update_user_last_login", { p_user_id: (prepared.user as { id: string }).id });
    expect((recorded.user as { last_login_at: string }).last_login_at).toBeTruthy();
    expect(await rpc(client, "get_current_user_context")).toMatchObject({ organization: { slug: "demo" } });
  });

  it("answers an unknown email exactly like a wrong password", async () => {
    const wrong = await prepare("admin@demo.test", "Wrong.1234");
    const unknown = await prepare("nobody@demo.test", "Wrong.1234");
    expect(wrong).toEqual({ success: false, code: "invalid_credentials", error: "Invalid login credentials" });
    expect(unknown).toEqual(wrong);
  });

  it("locks after the fifth failure and says for how long", async () => {
    const { email } = await createMember(url);
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      expect(await prepare(email, "Wrong.1234")).toMatchObject({ code: "invalid_credentials" });
    }
    expect(await prepare(email, "Wrong.1234")).toEqual({
      success: false,
      code: "account_locked",
      error: "Account is locked for 30 minutes",
      locked_minutes: 30,
    });
    expect(await prepare(email, testPassword)).toMatchObject({ code: "account_locked" });
  });

  it("counts ten concurrent wrong passwords one by one and locks at exactly five", async () => {
    const { email } = await createMember(url);
    await expectTenConcurrentFailuresToLockAtFive(url, email);
  });

  it("names the organization the user asked for, and refuses one they are not in", async () => {
    expect(await prepare("coklu@demo.test", demoPassword, "acme")).toMatchObject({ success: true, organization: { slug: "acme" } });
    expect(await prepare("satis@demo.test", demoPassword, "acme")).toEqual({
      success: false,
      code: "no_organization",
      error: "User not found: Unable to determine organization for satis@demo.test",
    });
  });

  it("never lets an anonymous caller set a password or read an account", async () => {
    const anon = anonClient(url);
    expect(await rpc(anon, "sync_user_password", { p_email: "admin@demo.test", p_password: "Hacked.123" })).toMatchObject({
      success: false,
      error: "Password sync failed",
    });
    expect(
      await rpc(anon, "create_auth_user_admin", { p_email: "admin@demo.test", p_password: "Hacked.123", p_first_name: "x", p_last_name: "y" }),
    ).toMatchObject({ success: false, error: "Auth user creation failed" });
    expect(await rpc(anon, "get_user_info_by_email", { user_email: "admin@demo.test" })).toEqual(
      await rpc(anon, "get_user_info_by_email", { user_email: "nobody@demo.test" }),
    );
    const { error } = await anon.auth.signInWithPassword({ email: "admin@demo.test", password: "Hacked.123" });
    expect(error?.code).toBe("invalid_credentials");
  });

  it("lets the login flow repair its own account once, right after proving the password", async () => {
    const { email } = await createMember(url);
    expect(await prepare(email, testPassword)).toMatchObject({ success: true });
    const anon = anonClient(url);
    expect(await rpc(anon, "sync_user_password", { p_email: email, p_password: testPassword })).toMatchObject({ success: true });
    // The proof is used up.
    expect(await rpc(anon, "sync_user_password", { p_email: email, p_password: testPassword })).toMatchObject({ success: false });
  });
});

describe("sessions and organizations", () => {
  it("binds once and refuses a later switch", async () => {
    const { client } = await signedInClient(url, "coklu@demo.test", demoPassword, { organization: false });
    const offered = await rpc(client, "get_my_organizations");
    const [first, second] = offered.organizations as { id: string; slug: string }[];
    expect(await rpc(client, "bind_session_organization", { p_organization_id: second.id })).toMatchObject({ success: true });
    expect(await rpc(client, "bind_session_organization", { p_organization_id: first.id })).toEqual({
      success: false,
      code: "organization_switch_disabled",
      error: "Changing organization is disabled for security. Please log in with the correct organization.",
    });
    expect(await rpc(client, "get_current_user_context")).toMatchObject({ organization: { id: second.id } });
  });

  it("ends a locked user's sessions at once", async () => {
    const member = await createMember(url);
    const { client: memberClient } = await signedInClient(url, member.email, testPassword);
    expect(await rpc(memberClient, "resolve_table_name_bypass", { org_slug: "demo", base_table_name: "customers" })).toMatchObject({
      success: true,
    });

    const { client: admin } = await signedInClient(url, "admin@demo.test");
    expect(await privilegedRpc(admin, "lock_user_secure", { p_user_id: member.id })).toMatchObject({
      success: true,
      user: { locked_by_admin: true },
    });

    // The access token is still unexpired, but the database no longer serves it tenant data.
    expect(await rpc(memberClient, "resolve_table_name_bypass", { org_slug: "demo", base_table_name: "customers" })).toMatchObject({
      success: false,
      error: "Table resolution failed for requested resource.",
    });
    const { error } = await memberClient.auth.refreshSession();
    expect(error).not.toBeNull();
    expect(await prepare(member.email, testPassword)).toMatchObject({ code: "admin_locked", error: "Account is locked by administrator" });

    expect(await privilegedRpc(admin, "unlock_user_secure", { p_user_id: member.id })).toMatchObject({ success: true });
    expect(await prepare(member.email, testPassword)).toMatchObject({ success: true });
  });

  it("lists the caller's login attempts newest first", async () => {
    const { email } = await createMember(url);
    await prepare(email, "Wrong.1234");
    await prepare(email, testPassword);
    const { client } = await signedInClient(url, email, testPassword);
    const { attempts } = await rpc(client, "get_login_attempts");
    expect((attempts as { success: boolean; failure_reason: string | null }[]).slice(0, 2)).toEqual([
      expect.objectContaining({ success: true, failure_reason: null }),
      expect.objectContaining({ success: false, failure_reason: "invalid_credentials" }),
    ]);
  });
});
