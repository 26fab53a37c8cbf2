import { describe, expect, inject, it } from "vitest";
import { createMember } from "../support/accounts.ts";
import { acmeOrganizationId, demoOrganizationId, signedInClient } from "../support/clients.ts";
import { invokeFunction, requestToken } from "../support/functions.ts";

const url = inject("stackUrl");

async function adminOf(email = "admin@demo.test") {
  const { client } = await signedInClient(url, email);
  return { client, token: await requestToken(client) };
}

describe.each(["admin-users", "admin-transfer"])("the privileged function %s", (name) => {
  const harmless = name === "admin-users"
    ? (userId: string) => ({ action: "unlock", user_id: userId })
    : (userId: string) => ({ action: "analyze", user_id: userId });

  it("refuses a plain user with a valid request token", async () => {
    const member = await createMember(url);
    const { client, token } = await adminOf("satis@demo.test");
    const answer = await invokeFunction(client, name, harmless(member.id), token);
    expect(answer).toMatchObject({ status: 403, body: { success: false, code: "admin_required" } });
  });

  it("refuses a missing or another session's request token", async () => {
    const member = await createMember(url);
    const { client } = await adminOf();
    expect(await invokeFunction(client, name, harmless(member.id))).toEqual({
      status: 403,
      body: { success: false, error: "Invalid request token" },
    });
    const { token: otherSessionsToken } = await adminOf();
    expect((await invokeFunction(client, name, harmless(member.id), otherSessionsToken)).status).toBe(403);
  });

  it("refuses malformed input", async () => {
    const { client, token } = await adminOf();
    const answer = await invokeFunction(client, name, { action: harmless("x").action, user_id: "not-an-id" }, token);
    expect(answer).toMatchObject({ status: 400, body: { success: false, code: "invalid_request" } });
  });

  it("does not touch another organization's users", async () => {
    const acmeMember = await createMember(url, { organizationId: acmeOrganizationId });
    const { client, token } = await adminOf();
    const answer = await invokeFunction(client, name, harmless(acmeMember.id), token);
    expect(answer).toMatchObject({ status: 404, body: { success: false, error: "User not found" } });
  });
});

describe("admin-users for an admin", () => {
  it("creates a user with the spec's messages, then locks and unlocks them", async () => {
    const { client, token } = await adminOf();
    const short = await invokeFunction(client, "admin-users", { action: "create", email: "kisa@demo.test", password: "12345" }, token);
    expect(short).toMatchObject({ status: 400, body: { error: "Şifre en az 6 karakter olmalı" } });

    const email = `fonksiyon-${Date.now()}@demo.test`;
    const created = await invokeFunction(
      client,
      "admin-users",
      { action: "create", email, password: "Yeni.123", organization_id: demoOrganizationId, first_name: " Yeni ", last_name: "Kişi" },
      token,
    );
    expect(created).toMatchObject({ status: 200, body: { success: true, user: { email, first_name: "Yeni" } } });
    const userId = (created.body.user as { id: string }).id;

    const duplicate = await invokeFunction(
      client,
      "admin-users",
      { action: "create", email, password: "Yeni.123", organization_id: demoOrganizationId },
      token,
    );
    expect(duplicate).toMatchObject({ status: 409, body: { error: "Bu email adresi zaten kullanımda" } });

    expect(await invokeFunction(client, "admin-users", { action: "lock", user_id: userId }, token)).toMatchObject({
      status: 200,
      body: { user: { locked_by_admin: true } },
    });
    expect(await invokeFunction(client, "admin-users", { action: "unlock", user_id: userId }, token)).toMatchObject({
      status: 200,
      body: { user: { locked_by_admin: false, locked_until: null } },
    });
  });

  it("cannot delete itself", async () => {
    const { client, token } = await adminOf();
    const { data } = await client.auth.getUser();
    expect(await invokeFunction(client, "admin-users", { action: "delete", user_id: data.user!.id }, token)).toMatchObject({
      status: 403,
      body: { error: "Kendi hesabınızı silemezsiniz" },
    });
  });
});

describe("admin-transfer for an admin", () => {
  it("analyses, lists receivers and transfers with the defaults", async () => {
    const giver = await createMember(url);
    const taker = await createMember(url);
    const { client, token } = await adminOf();
    expect(await invokeFunction(client, "admin-transfer", { action: "analyze", user_id: giver.id }, token)).toMatchObject({
      status: 200,
      body: { success: true, counts: { deals: 0, customers: 0, tasks: 0, contracts: 0, quotes: 0, templates: 0 } },
    });
    const receivers = await invokeFunction(client, "admin-transfer", { action: "users", exclude_user_id: giver.id }, token);
    expect((receivers.body.users as { id: string }[]).map((user) => user.id)).toContain(taker.id);
    expect(
      await invokeFunction(client, "admin-transfer", { action: "transfer", from_user_id: giver.id, to_user_id: taker.id }, token),
    ).toMatchObject({ status: 200, body: { success: true, kinds: ["customers", "deals", "tasks"] } });
    expect(
      await invokeFunction(client, "admin-transfer", { action: "transfer", from_user_id: giver.id, to_user_id: taker.id, kinds: ["quotes", "templates"] }, token),
    ).toMatchObject({ status: 200, body: { success: true, kinds: ["quotes", "templates"], transferred: { quotes: 0, templates: 0 } } });
    expect(
      await invokeFunction(client, "admin-transfer", { action: "transfer", from_user_id: giver.id, to_user_id: taker.id, kinds: ["users"] }, token),
    ).toMatchObject({ status: 400, body: { success: false, code: "invalid_transfer_kind" } });
  });
});

describe("admin-organizations", () => {
  it("lets only a super admin manage organizations, with a request token and well-formed input", async () => {
    const { client: admin, token: adminToken } = await adminOf();
    expect(await invokeFunction(admin, "admin-organizations", { action: "list" }, adminToken)).toMatchObject({
      status: 403,
      body: { code: "super_admin_required" },
    });
    const { client: superAdmin, token } = await adminOf("super@demo.test");
    expect((await invokeFunction(superAdmin, "admin-organizations", { action: "list" })).status).toBe(403);
    // `plan` is not a field of create (the field is subscription_plan): unknown keys are dropped, the
    // slug rule is the database's.
    expect(await invokeFunction(superAdmin, "admin-organizations", { action: "create", slug: "bad slug", name: "X" }, token)).toMatchObject({
      status: 400,
      body: { code: "invalid_slug" },
    });
    expect((await invokeFunction(superAdmin, "admin-organizations", { action: "update", organization_id: "x" }, token)).status).toBe(400);
  });

  it("creates an organization, counts its members, and deactivating it ends their work there", async () => {
    const { client: superAdmin, token } = await adminOf("super@demo.test");
    const slug = `fn-${Date.now().toString(36)}`;
    const created = await invokeFunction(superAdmin, "admin-organizations", { action: "create", slug, name: "Fonksiyon A.Ş." }, token);
    expect(created).toMatchObject({ status: 200, body: { organization: { slug, subscription_plan: "basic" } } });
    const organizationId = (created.body.organization as { id: string }).id;
    const duplicate = await invokeFunction(superAdmin, "admin-organizations", { action: "create", slug, name: "Again" }, token);
    expect(duplicate).toMatchObject({ status: 409, body: { code: "slug_taken" } });

    const member = await createMember(url, { organizationId });
    const { client: memberClient } = await signedInClient(url, member.email, member.password);
    const listed = await invokeFunction(superAdmin, "admin-organizations", { action: "list" }, token);
    expect((listed.body.organizations as { id: string; member_count: number }[]).find((o) => o.id === organizationId)).toMatchObject({
      member_count: 1,
    });

    const deactivated = await invokeFunction(
      superAdmin,
      "admin-organizations",
      { action: "update", organization_id: organizationId, changes: { is_active: false, subscription_status: "suspended" } },
      token,
    );
    expect(deactivated).toMatchObject({ status: 200, body: { organization: { is_active: false, subscription_status: "suspended" } } });
    const { data } = await memberClient.rpc("get_current_user_context");
    expect(data).toMatchObject({ organization: null });
  });
});
