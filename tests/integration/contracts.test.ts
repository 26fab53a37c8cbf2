/**
 * Contracts through supabase-js on the local stack (issue 13): an admin creates an active
 * contract (numbered from the pattern), renews it into a linked next term and the old one
 * reads renewed; a stale or second renewal is refused; coklu@ working in demo (Kullanıcı:
 * sees all, changes its own) sees it but may not renew or terminate it; satis@ (Satış
 * Temsilcisi: sees only its own) does not see it; admin@acme and coklu@ working in acme
 * get "not found"; the
 * ending-soon list and a termination with its reason; the demo seed's contracts are there.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { acmeOrganizationId, demoOrganizationId, rpc, signedInClient } from "../support/clients.ts";

const url = inject("stackUrl");

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

describe("contracts through supabase-js", () => {
  it("renews an active contract into a linked next term; refuses stale, repeated and foreign renewals", async () => {
    const { client: admin } = await signedInClient(url, "admin@demo.test");
    const title = `Entegrasyon bakım sözleşmesi ${randomUUID().slice(0, 6)}`;
    const created = await rpc(admin, "create_contract", {
      p_values: { title, status: "active", start_date: day(-300), end_date: day(20), value: "99999999999999.99", auto_renew: true, renewal_notice_days: 30 },
    });
    expect(created).toMatchObject({ success: true, record: { title, status: "active", currency: "TRY", auto_renew: true } });
    const contract = created.record as { id: string; updated_at: string; contract_number: string };
    expect(contract.contract_number).toMatch(/^SZL-\d{4}-\d{5}$/);
    // The value is kept exactly as sent (numeric in SQL) and read back as a decimal string.
    expect(await rpc(admin, "get_contract_details", { p_id: contract.id })).toMatchObject({ contract: { value: "99999999999999.99" } });

    const ending = await rpc(admin, "list_contracts_ending", { p_days: 30 });
    expect(ending.contracts).toContainEqual(expect.objectContaining({ id: contract.id, days_left: expect.any(Number), auto_renew: true }));

    // Others first: coklu@ working in demo (sees all, changes own), satis@ (sees only its own),
    // acme's admin, coklu@ working in acme.
    const { client: user } = await signedInClient(url, "coklu@demo.test", undefined, { organization: demoOrganizationId });
    expect(await rpc(user, "get_contract_details", { p_id: contract.id })).toMatchObject({ success: true, contract: { id: contract.id } });
    expect(await rpc(user, "renew_contract", { p_id: contract.id, p_updated_at: contract.updated_at })).toMatchObject({ success: false, code: "not_found" });
    expect(await rpc(user, "terminate_contract", { p_id: contract.id, p_updated_at: contract.updated_at, p_reason: "x" })).toMatchObject({
      success: false,
      code: "not_found",
    });
    const { client: satis } = await signedInClient(url, "satis@demo.test");
    expect(await rpc(satis, "get_contract_details", { p_id: contract.id })).toMatchObject({ success: false, code: "not_found" });
    const satisEnding = await rpc(satis, "list_contracts_ending", { p_days: 30 });
    expect((satisEnding.contracts as { id: string }[]).map((entry) => entry.id)).not.toContain(contract.id);
    const { client: acme } = await signedInClient(url, "admin@acme.test");
    const { client: coklu } = await signedInClient(url, "coklu@demo.test", undefined, { organization: acmeOrganizationId });
    for (const outsider of [acme, coklu]) {
      expect(await rpc(outsider, "get_contract_details", { p_id: contract.id })).toMatchObject({ success: false, code: "not_found" });
      expect(await rpc(outsider, "renew_contract", { p_id: contract.id, p_updated_at: contract.updated_at })).toMatchObject({ success: false, code: "not_found" });
      const theirs = await rpc(outsider, "list_contracts_ending", { p_days: 365 });
      expect((theirs.contracts as { id: string }[]).map((entry) => entry.id)).not.toContain(contract.id);
    }

    expect(await rpc(admin, "renew_contract", { p_id: contract.id, p_updated_at: "2020-01-01T00:00:00Z" })).toMatchObject({
      success: false,
      code: "stale_record",
    });
    const renewed = await rpc(admin, "renew_contract", { p_id: contract.id, p_updated_at: contract.updated_at });
    expect(renewed).toMatchObject({ success: true, id: expect.any(String), contract_number: expect.stringMatching(/^SZL-/) });
    const next = await rpc(admin, "get_contract_details", { p_id: renewed.id });
    expect(next).toMatchObject({
      success: true,
      contract: { status: "active", start_date: day(21), previous_contract_id: contract.id, auto_renew: true },
      previous: { id: contract.id, contract_number: contract.contract_number, status: "renewed" },
      next: null,
    });
    const old = await rpc(admin, "get_contract_details", { p_id: contract.id });
    expect(old).toMatchObject({ contract: { status: "renewed", locked: true }, next: { id: renewed.id } });
    const oldAt = (old.contract as { updated_at: string }).updated_at;
    expect(await rpc(admin, "renew_contract", { p_id: contract.id, p_updated_at: oldAt })).toMatchObject({ success: false, code: "already_renewed" });
    expect(await rpc(admin, "update_contract", { p_id: contract.id, p_values: { title: "Yeni" }, p_updated_at: oldAt })).toMatchObject({
      success: false,
      code: "invalid_fields",
      fields: { status: "locked" },
    });

    const nextAt = (next.contract as { updated_at: string }).updated_at;
    expect(await rpc(admin, "terminate_contract", { p_id: renewed.id, p_updated_at: nextAt, p_reason: " " })).toMatchObject({
      success: false,
      fields: { termination_reason: "required" },
    });
    expect(await rpc(admin, "terminate_contract", { p_id: renewed.id, p_updated_at: nextAt, p_reason: "Müşteri taşındı" })).toMatchObject({
      success: true,
      record: { status: "terminated", termination_reason: "Müşteri taşındı" },
    });
    expect(await rpc(admin, "delete_contracts", { p_ids: [contract.id, renewed.id] })).toMatchObject({ success: true, changed: 2 });
  });

  it("lists the demo's contracts on the record kit and refuses a stranger's customer", async () => {
    const { client: satis } = await signedInClient(url, "satis@demo.test");
    const page = await rpc(satis, "list_contracts", { p_filters: { status: "renewed" }, p_sort: "contract_number", p_descending: false });
    expect(page).toMatchObject({ success: true });
    expect((page.records as { status: string }[]).every((row) => row.status === "renewed")).toBe(true);
    const { client: acme } = await signedInClient(url, "admin@acme.test");
    const acmeCustomer = (await rpc(acme, "list_customers", { p_limit: 1 })).records as { id: string }[];
    expect(await rpc(satis, "create_contract", { p_values: { title: "Sızma", customer_id: acmeCustomer[0].id } })).toMatchObject({
      success: false,
      fields: { customer_id: "not_found" },
    });
  });
});
