import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { createMember, testPassword } from "../support/accounts.ts";
import { anonClient, demoOrganizationId, privilegedRpc, rpc, signedInClient } from "../support/clients.ts";

const url = inject("stackUrl");

describe("organizations and their tables through supabase-js", () => {
  it("a super admin creates an organization whose new admin signs in to it", async () => {
    const { client: superAdmin } = await signedInClient(url, "super@demo.test");
    const slug = `org-${randomUUID().slice(0, 8)}`;
    const created = await privilegedRpc(superAdmin, "create_organization", { p_slug: slug, p_name: "Yeni Şirket A.Ş." });
    expect(created).toMatchObject({ success: true, organization: { slug, name: "Yeni Şirket A.Ş.", subscription_plan: "basic" } });
    const organizationId = (created.organization as { id: string }).id;

    const email = `yonetici-${randomUUID().slice(0, 8)}@test.example`;
    expect(
      await privilegedRpc(superAdmin, "create_user_secure", {
        p_email: email,
        p_password: testPassword,
        p_organization_id: organizationId,
        p_first_name: "Yeni",
        p_last_name: "Yönetici",
        p_role: "admin",
      }),
    ).toMatchObject({ success: true });

    const prepared = await rpc(anonClient(url), "secure_login_prepare_auth", { p_email: email, p_password: testPassword });
    expect(prepared).toMatchObject({ success: true, organization: { slug } });
    const { client: newAdmin } = await signedInClient(url, email, testPassword);
    expect(await rpc(newAdmin, "resolve_table_name_bypass", { org_slug: slug, base_table_name: "deals" })).toMatchObject({
      success: true,
      table_name: "deals",
    });
    // Its tables are not another organization's business.
    expect(await rpc(newAdmin, "resolve_table_name_bypass", { org_slug: "demo", base_table_name: "deals" })).toMatchObject({
      success: false,
      error: "Table resolution failed for requested resource.",
    });
  });

  it("refuses organization management to an admin and a plain user", async () => {
    for (const email of ["admin@demo.test", "satis@demo.test"]) {
      const { client } = await signedInClient(url, email);
      expect(await privilegedRpc(client, "create_organization", { p_slug: `x-${randomUUID().slice(0, 6)}`, p_name: "X" })).toMatchObject({
        success: false,
        error: "Admin privileges required",
      });
    }
    const { error } = await anonClient(url).rpc("create_organization", { p_slug: "anon", p_name: "Anon" });
    expect(error?.code).toBe("42501");
  });

  it("keeps tenant tables out of the Data API", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const resolved = await rpc(client, "resolve_table_name_bypass", { org_slug: "demo", base_table_name: "customers" });
    const { data, error } = await client.schema(resolved.schema_name as "public").from("customers" as never).select("*");
    expect(data).toBeNull();
    expect(error?.code).toBe("PGRST106");
  });
});

describe("user administration through supabase-js", () => {
  it("an admin creates a user with the spec's validation messages", async () => {
    const { client } = await signedInClient(url, "admin@demo.test");
    const create = (fields: Record<string, unknown>) =>
      privilegedRpc(client, "create_user_secure", {
        p_email: "yeni@demo.test",
        p_password: "Yeni.123",
        p_organization_id: demoOrganizationId,
        p_first_name: "Yeni",
        p_last_name: "Kişi",
        p_role: "user",
        ...fields,
      });
    expect(await create({ p_email: "not-an-email" })).toMatchObject({ error: "Geçerli bir email adresi girin" });
    expect(await create({ p_password: "12345" })).toMatchObject({ error: "Şifre en az 6 karakter olmalı" });
    expect(await create({ p_organization_id: null })).toMatchObject({ error: "Şirket bilgisi gerekli", code: "organization_required" });
    expect(await create({ p_email: " SATIS@demo.test " })).toMatchObject({ error: "Bu email adresi zaten kullanımda" });
    const { client: plainUser } = await signedInClient(url, "satis@demo.test");
    expect(await privilegedRpc(plainUser, "create_user_secure", { p_email: "x@demo.test", p_password: "Yeni.123", p_organization_id: null })).toMatchObject({
      error: "Admin yetkisi gerekli",
    });
  });

  it("moves a user's records with the spec's defaults, then lets the user be deleted", async () => {
    const giver = await createMember(url);
    const taker = await createMember(url);
    const { client: admin } = await signedInClient(url, "admin@demo.test");
    expect(await privilegedRpc(admin, "analyze_user_records", { target_user_id: giver.id })).toMatchObject({
      success: true,
      total: 0,
      counts: { deals: 0, customers: 0, tasks: 0, contracts: 0, quotes: 0, templates: 0 },
    });
    const receivers = await privilegedRpc(admin, "get_users_for_transfer", { exclude_user_id: giver.id });
    expect((receivers.users as { id: string }[]).map((user) => user.id)).toContain(taker.id);
    expect((receivers.users as { id: string }[]).map((user) => user.id)).not.toContain(giver.id);

    expect(await privilegedRpc(admin, "transfer_user_records", { from_user_id: giver.id, to_user_id: taker.id })).toMatchObject({
      success: true,
      kinds: ["customers", "deals", "tasks"],
    });
    expect(await privilegedRpc(admin, "delete_user_secure", { p_user_id: giver.id })).toMatchObject({ success: true });
    expect(await rpc(anonClient(url), "secure_login_prepare_auth", { p_email: giver.email, p_password: testPassword })).toMatchObject({
      code: "invalid_credentials",
    });
  });

  it("keeps an admin inside their own organization", async () => {
    const acmeMember = await createMember(url, { organizationId: "0a000000-0000-4000-8000-000000000002" });
    const { client: demoAdmin } = await signedInClient(url, "admin@demo.test");
    for (const [name, args] of [
      ["lock_user_secure", { p_user_id: acmeMember.id }],
      ["simple_reset_password", { p_user_id: acmeMember.id, p_new_password: "Hacked.123" }],
      ["delete_user_secure", { p_user_id: acmeMember.id }],
      ["update_user_secure", { p_user_id: acmeMember.id, p_user_data: { first_name: "Hacked" } }],
    ] as const) {
      expect(await privilegedRpc(demoAdmin, name, args)).toMatchObject({ success: false, error: "User not found" });
    }
    expect(await privilegedRpc(demoAdmin, "analyze_user_records", { target_user_id: acmeMember.id, organization_slug: "acme" })).toMatchObject({
      success: false,
    });
    expect(await rpc(anonClient(url), "secure_login_prepare_auth", { p_email: acmeMember.email, p_password: testPassword })).toMatchObject({
      success: true,
    });
  });
});
